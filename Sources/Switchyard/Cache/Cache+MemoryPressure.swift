extension Cache: MemoryPressureResponder {
    /// Memory pressure: on `.warning`, ``trim(toFraction:)`` to ``pressureTrimFraction`` (discardable entries
    /// first); on `.critical`, every entry is removed. Removals are notified as `.pressure`. Called by the
    /// ``MemoryPressureMonitor`` the cache registered with, or directly. - Complexity: O(n).
    public func respond(to level: MemoryPressureLevel) {
        switch level {
        case .normal: break
        case .warning: trim(toFraction: pressureTrimFraction)
        case .critical: purge(.pressure)
        }
    }
}
