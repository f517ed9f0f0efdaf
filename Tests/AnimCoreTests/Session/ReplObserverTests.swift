// The REPL's clock comes to rest at the end of every entry: the frame at that instant runs
// then, so a value read in the next entry includes what the observers did at that frame (it
// used to be one frame behind), and a change that ended off the frames was seen at its end.
import AnimCore
import AnimTestSupport
import Testing

@Suite("REPL: observers when an entry ends")
struct ReplObserverTests {
    @Test("a value driven by an observer is current after the entry")
    func drivenValueIsCurrent() {
        let d = ReplDriver()
        d.type([
            "rect card progress 0",
            "rect box center (0, 0)",
            "on change card.progress < set box.center = (card.progress * 100, 0) >",
        ])
        d.enter("animate 1 ease ease-in-out < card.progress = 1 >")
        #expect(d.enter("box.center") == "= (100, 0)\n")
    }

    @Test("an entry ending between frames: the observer saw the final value")
    func offFrameEnd() {
        let d = ReplDriver()
        d.type([
            "rect counter count 0",
            "text label text \"0\"",
            "on change counter.count < set label.text = \"{round(counter.count)}\" >",
        ])
        d.enter("animate 0.71 ease linear < counter.count = 42 >")
        #expect(d.enter("label.text") == "= \"42\"\n")
    }
}
