import HTTPTypes
import Hummingbird
import NIOCore
import PeerdWire

/// The 401 of the device door (proto/WEB.md, "Devices"): for the page, a page of plain words that
/// says how to link again; for the API, its JSON error, which the page answers by loading itself
/// again, so the phone shows these words.
enum DeviceRefusalPage {
    static func response(_ refusal: DeviceBook.Refusal, machine: String, page: Bool) -> Response {
        let why = Self.why(refusal)
        let again = "Ask someone at \(machine) to run `peerctl device link` and open the new link on this phone."
        guard page else {
            let error = WireError(.forbidden, "\(why) \(again)")
            return Response(
                status: .unauthorized,
                headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: WireCoding.encode(ControlResponse.error(error))))
            )
        }
        return Response(
            status: .unauthorized,
            headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html(why: why, machine: machine)))
        )
    }

    static func why(_ refusal: DeviceBook.Refusal) -> String {
        switch refusal {
        case .unknownLink: "This link does not work: it was used already, or it is not a link peerd made."
        case .expiredLink: "This link has expired."
        // The same words: a capability copied to another address learns nothing from them.
        case .unknownDevice, .otherAddress: "This phone is not linked to the watch list, or it was unlinked."
        }
    }

    static func html(why: String, machine: String) -> String {
        let machine = escaped(machine)
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>Not linked · peerd</title>
            </head>
            <body>
            <h1>Not linked</h1>
            <p>\(escaped(why))</p>
            <p>Ask someone at \(machine) to run <code>peerctl device link</code> and open the new link on this phone.</p>
            </body>
            </html>

            """
    }

    static func escaped(_ text: String) -> String {
        text.reduce(into: "") { out, character in
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
    }
}
