import CQRencode

/// A QR code of a text, made by libqrencode (Debian's libqrencode-dev), the well-kept encoder,
/// linked as Avahi is: the guest link of a pick is shown as one, in the terminal and on the page.
/// Error correction level M (15 %), byte mode, the smallest version that holds the text.
package struct QRCode: Sendable, Equatable {
    /// Modules per side, without the quiet zone.
    package let size: Int
    /// Row by row, true for a dark module.
    private let modules: [Bool]

    /// Nil when the text is too long for any QR code (about 2,300 bytes at level M).
    package init?(_ text: String) {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        size = width
        // Bit 0 of each byte is the module's colour; the other bits say what kind of module it is.
        modules = (0..<width * width).map { code.pointee.data[$0] & 1 == 1 }
    }

    package func isDark(x: Int, y: Int) -> Bool {
        (0..<size).contains(x) && (0..<size).contains(y) && modules[y * size + x]
    }

    /// The quiet zone, in modules, that scanners need around a code.
    package static let quietZone = 2

    /// Two rows of modules per line in Unicode half blocks, black on white whatever the terminal's
    /// colours (ANSI 30/47) when `colors`, else dark modules as the terminal's foreground.
    package func terminalText(colors: Bool = true) -> String {
        let range = -Self.quietZone..<(size + Self.quietZone)
        var lines: [String] = []
        for top in stride(from: range.lowerBound, to: range.upperBound, by: 2) {
            var line = colors ? "\u{1B}[30;47m" : ""
            for x in range {
                line += Self.block(top: isDark(x: x, y: top), bottom: isDark(x: x, y: top + 1))
            }
            lines.append(line + (colors ? "\u{1B}[0m" : ""))
        }
        return lines.joined(separator: "\n")
    }

    private static func block(top: Bool, bottom: Bool) -> String {
        switch (top, bottom) {
        case (true, true): "█"
        case (true, false): "▀"
        case (false, true): "▄"
        case (false, false): " "
        }
    }

    /// An SVG image: on a white square with a 4-module quiet zone, one path of 1-module-wide
    /// horizontal strokes, one per run of dark modules, each row's runs as relative moves. It stays
    /// small (about 2 KB for a link), so it fits a control response's 4 KiB string.
    package var svg: String {
        let side = size + 8
        var path = ""
        for y in 0..<size {
            var x = 0
            var pen: Int?
            while x < size {
                guard isDark(x: x, y: y) else {
                    x += 1
                    continue
                }
                var run = 1
                while isDark(x: x + run, y: y) { run += 1 }
                path += pen.map { "m\(x - $0) 0h\(run)" } ?? "M\(x + 4) \(y + 4).5h\(run)"
                pen = x + run
                x += run
            }
        }
        let open = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \##(side) \##(side)""##
        return open + ##" shape-rendering="crispEdges"><rect width="\##(side)" height="\##(side)" fill="#fff"/>"##
            + ##"<path d="\##(path)" stroke="#000" stroke-width="1"/></svg>"##
    }

    /// A binary PGM image (P5), `scale` pixels a module, with a 4-module quiet zone: what a
    /// decoder such as zbar's `zbarimg` reads, for tests.
    package func pgm(scale: Int = 4) -> [UInt8] {
        let side = (size + 8) * scale
        var bytes = Array("P5\n\(side) \(side)\n255\n".utf8)
        bytes.reserveCapacity(bytes.count + side * side)
        for row in 0..<side {
            for column in 0..<side {
                bytes.append(isDark(x: column / scale - 4, y: row / scale - 4) ? 0 : 255)
            }
        }
        return bytes
    }
}
