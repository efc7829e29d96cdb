import Foundation
import PeerdCatalog
import PeerdTestKit
import SystemPackage
import Testing

@Suite struct TMDBCredentialTests {
    static let apiKey = "0123456789abcdef0123456789ABCDEF"
    static let readAccessToken = "eyJhbGciOiJIUzI1NiJ9.eyJhdWQiOiJwZWVyZC10ZXN0In0.c2VjcmV0LXNpZ25hdHVyZQ"

    @Test func thirtyTwoHexDigitsAreAV3APIKey() throws {
        #expect(try TMDBCredential(token: Self.apiKey, source: "test").kind == .apiKey)
    }

    @Test func aJWTIsAV4ReadAccessToken() throws {
        #expect(try TMDBCredential(token: Self.readAccessToken, source: "test").kind == .readAccessToken)
    }

    @Test(arguments: ["", "not-a-token", "0123456789abcdef", "eyJhbGciOiJIUzI1NiJ9", "eyJ.a b.c", "Bearer eyJ.x.y"])
    func anythingElseIsRefusedWithoutQuotingIt(token: String) {
        let error = #expect(throws: CatalogError.tokenNotRecognised(source: "TMDB_TOKEN")) {
            try TMDBCredential(token: token, source: "TMDB_TOKEN")
        }
        #expect(error.map { token.isEmpty || !"\($0)".contains(token) } == true)
    }

    @Test func whitespaceAroundTheTokenIsIgnored() throws {
        let environment = ["TMDB_TOKEN": "  \(Self.readAccessToken)\n"]
        let credential = try #require(try TMDBCredential.load(file: nil, environment: environment))
        #expect(credential.kind == .readAccessToken)
        #expect(credential.source == "TMDB_TOKEN")
    }

    @Test func aFileOthersCanReadIsRefusedWithTheChmodHint() throws {
        let directory = try ScratchDirectory("catalog")
        defer { directory.remove() }
        let file = try directory.write(Self.apiKey, to: "tmdb.token", mode: 0o644)
        let error = #expect(throws: CatalogError.tokenFileOpenToOthers(file, mode: "644")) {
            try TMDBCredential.load(file: file, environment: [:])
        }
        print("refused:", error.map(String.init(describing:)) ?? "none")
        #expect(error.map { "\($0)".contains("chmod 600 \(file)") } == true)
        #expect(error.map { !"\($0)".contains(Self.apiKey) } == true)
    }

    @Test func aFileOnlyItsOwnerCanReadIsAccepted() throws {
        let directory = try ScratchDirectory("catalog")
        defer { directory.remove() }
        let file = try directory.write("\(Self.apiKey)\n", to: "tmdb.token")
        let credential = try #require(try TMDBCredential.load(file: file, environment: [:]))
        #expect(credential.kind == .apiKey)
        #expect(credential.source == file.string)
    }

    @Test func aMissingFileThatWasAskedForIsAnError() throws {
        let directory = try ScratchDirectory("catalog")
        defer { directory.remove() }
        let file = directory.path.appending("absent.token")
        #expect(throws: CatalogError.tokenFileUnreadable(file, .noSuchFileOrDirectory)) {
            try TMDBCredential.load(file: file, environment: [:])
        }
    }

    @Test func aGivenFileBeatsTheEnvironmentWhichBeatsTheDefaultFile() throws {
        let directory = try ScratchDirectory("catalog")
        defer { directory.remove() }
        let given = try directory.write(Self.apiKey, to: "given.token")
        let defaultFile = try directory.write(Self.apiKey, to: "config/peerd/tmdb.token")
        let environment = [
            "TMDB_TOKEN": Self.readAccessToken, "XDG_CONFIG_HOME": directory.path.appending("config").string,
        ]

        let fromFile = try TMDBCredential.load(file: given, environment: environment)
        #expect(fromFile?.source == given.string)
        let fromEnvironment = try TMDBCredential.load(file: nil, environment: environment)
        #expect(fromEnvironment?.source == "TMDB_TOKEN")
        var withoutVariable = environment
        withoutVariable["TMDB_TOKEN"] = nil
        let fromDefault = try TMDBCredential.load(file: nil, environment: withoutVariable)
        #expect(fromDefault?.source == defaultFile.string)
    }

    @Test func theDefaultFileIsUnderHomeWithoutXDGConfigHome() throws {
        let directory = try ScratchDirectory("catalog")
        defer { directory.remove() }
        let file = try directory.write(Self.apiKey, to: ".config/peerd/tmdb.token")
        let credential = try TMDBCredential.load(file: nil, environment: ["HOME": directory.path.string])
        #expect(credential?.source == file.string)
        #expect(
            TMDBCredential.defaultFile(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"])
                == "/h/.config/peerd/tmdb.token"
        )
    }

    @Test func noTokenAnywhereIsNil() throws {
        let directory = try ScratchDirectory("catalog")
        defer { directory.remove() }
        #expect(
            try TMDBCredential.load(file: nil, environment: ["HOME": directory.path.string, "TMDB_TOKEN": " "]) == nil
        )
    }

    @Test func neitherTheDescriptionNorADumpShowsTheToken() throws {
        for token in [Self.apiKey, Self.readAccessToken] {
            let credential = try TMDBCredential(token: token, source: "TMDB_TOKEN")
            var dumped = ""
            dump(credential, to: &dumped)
            let shown = [credential.description, String(reflecting: credential), "\(credential)", dumped]
            print("shown:", shown[0])
            #expect(shown.allSatisfy { !$0.contains(token) })
        }
    }
}
