#if Images
    import CVipsFixtures
    import Foundation
    import SwitchyardImages

    /// The `images` suite's sources, generated at bench time from fixed seeds: JPEG photos with every EXIF
    /// orientation and PNGs with alpha. Eight JPEG and two PNG pictures are made; the corpus repeats them (every
    /// tool decodes every file, so repeats cost what distinct files do, and generating is quick).
    struct ImageCorpus {
        let folder: String
        let files: [String]

        /// Full size: 200 JPEGs of 4000 × 3000 and 50 PNGs of 2000 × 1500; `small` (a smoke run): 16 and 4,
        /// a quarter of the size.
        static func make(in folder: String, small: Bool) throws -> ImageCorpus {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // libvips started by the library first: the fixtures' own start must not race it.
            _ = ImageFormat.jpeg.isAvailable
            let (jpegs, pngs, divisor) = small ? (16, 4, 4) : (200, 50, 1)
            var files: [String] = []
            let jpegPictures = try (1...8).map { orientation in
                try picture(
                    4000 / divisor, 3000 / divisor, seed: UInt64(orientation), orientation, alpha: false, ".jpg[Q=90]")
            }
            let pngPictures = try (1...2).map { seed in
                try picture(2000 / divisor, 1500 / divisor, seed: UInt64(100 + seed), 1, alpha: true, ".png")
            }
            for index in 0..<jpegs {
                let path = folder + "/photo-\(index).jpg"
                try Data(jpegPictures[index % jpegPictures.count]).write(to: URL(fileURLWithPath: path))
                files.append(path)
            }
            for index in 0..<pngs {
                let path = folder + "/graphic-\(index).png"
                try Data(pngPictures[index % pngPictures.count]).write(to: URL(fileURLWithPath: path))
                files.append(path)
            }
            return ImageCorpus(folder: folder, files: files)
        }

        private static func picture(
            _ width: Int, _ height: Int, seed: UInt64, _ orientation: Int, alpha: Bool, _ suffix: String
        ) throws -> [UInt8] {
            var output: UnsafeMutableRawPointer?
            var length = 0
            let status = syf_photo(
                Int32(width), Int32(height), seed, Int32(orientation), alpha ? 1 : 0, suffix, &output, &length)
            guard status == 0, let output else {
                throw CocoaError(
                    .fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "libvips could not make \(suffix)"])
            }
            defer { syf_free(output) }
            return [UInt8](UnsafeRawBufferPointer(start: output, count: length))
        }
    }
#endif
