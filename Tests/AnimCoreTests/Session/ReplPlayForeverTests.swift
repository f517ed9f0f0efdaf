// A REPL entry whose `repeat forever` plays a define (`play NAME` inside the loop): the played
// graph can finish, but the loop around it never does, so the entry runs `:until` per entry in
// the background, as a `repeat forever` of the define's steps written out does.
@testable import AnimCore
import AnimTestSupport
import Testing

@Suite("REPL: play inside repeat forever")
struct ReplPlayForeverTests {
    @Test("a repeat forever that plays a define runs in the background, as the same steps written out do")
    func playInsideRepeatForever() {
        let written = ReplDriver()
        written.enter("rect sq")
        let a = written.enter("repeat forever < wait 4 then print \"tick\" >")
        let played = ReplDriver()
        played.enter("rect sq")
        played.enter("define tick() = wait 4 then print \"tick\"")
        let b = played.enter("repeat forever < play tick() >")
        #expect(a == "[4.000] tick\n[8.000] tick\ntime 10.000s, 1 graph running\n")
        #expect(b == a)
        #expect(played.enter("print \"next\"") == "[10.000] next\n[12.000] tick\n[16.000] tick\n[20.000] tick\ntime 20.000s, 1 graph running\n")
    }
}
