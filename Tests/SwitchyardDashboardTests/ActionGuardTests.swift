#if Dashboard
    import Testing

    @testable import SwitchyardDashboard

    @Suite struct ActionGuardTests {
        let enabled = DashboardActions.enabled(token: "secret")

        func refusal(
            _ actions: DashboardActions, authorization: String? = "Bearer secret", site: String? = nil,
            origin: String? = nil, host: String? = "127.0.0.1:8600"
        ) -> String? {
            ActionGuard.refusal(
                actions: actions, authorization: authorization, secFetchSite: site, origin: origin, host: host)
        }

        @Test func readOnlyRefusesEverything() {
            #expect(refusal(.disabled)?.contains("read-only") == true)
        }

        @Test func theTokenIsRequiredAndCompared() {
            #expect(refusal(enabled) == nil)
            #expect(refusal(enabled, authorization: nil)?.contains("token") == true)
            #expect(refusal(enabled, authorization: "Bearer secreT") == "wrong token")
            #expect(refusal(enabled, authorization: "Bearer secret2") == "wrong token")
            #expect(refusal(enabled, authorization: "Basic secret")?.contains("token") == true)
        }

        @Test func crossSiteRequestsAreRefused() {
            #expect(refusal(enabled, site: "same-origin") == nil)
            #expect(refusal(enabled, site: "none") == nil)
            #expect(refusal(enabled, site: "cross-site")?.contains("cross-site") == true)
            #expect(refusal(enabled, site: "same-site")?.contains("same-site") == true)
        }

        @Test func foreignOriginsAreRefused() {
            #expect(refusal(enabled, origin: "http://127.0.0.1:8600") == nil)
            #expect(refusal(enabled, origin: "HTTP://127.0.0.1:8600") == nil)
            #expect(refusal(enabled, origin: "http://evil.example") != nil)
            #expect(refusal(enabled, origin: "null") != nil)
            #expect(refusal(enabled, origin: "http://127.0.0.1:8600", host: nil) != nil)
        }

        @Test func randomTokensAreLongAndDiffer() {
            let first = DashboardActions.randomToken()
            #expect(first.count == 64 && first.allSatisfy(\.isHexDigit))
            #expect(first != DashboardActions.randomToken())
        }

        @Test func configurationClampsToItsFloorAndCeilings() {
            var configuration = DashboardConfiguration(interval: .milliseconds(10), listLimit: 10_000)
            #expect(configuration.interval == .milliseconds(250))
            #expect(configuration.listLimit == DashboardConfiguration.listLimitCeiling)
            configuration.interval = .seconds(2)
            configuration.listLimit = 0
            #expect(configuration.interval == .seconds(2) && configuration.listLimit == 1)
            #expect(DashboardConfiguration().interval == .seconds(1))
            #expect(DashboardConfiguration().actions == .disabled)
        }
    }
#endif
