import PeerControl
import Testing

/// `peerctl add <TMDB link>`: the title a link's slug gives before TMDB is asked.
@Suite("Movies named by link")
struct MovieReferenceTests {
    @Test(
        arguments: [
            ("https://www.themoviedb.org/movie/550-fight-club", "Fight Club"),
            ("https://www.themoviedb.org/de/movie/603-the-matrix?language=de", "The Matrix"),
            ("https://www.themoviedb.org/movie/603", nil), ("603", nil),
        ] as [(String, String?)]
    )
    func aTMDBURLsSlugGivesAProvisionalTitle(url: String, title: String?) {
        #expect(MovieReference.slugTitle(url) == title)
    }
}
