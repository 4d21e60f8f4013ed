/// The kiosk spec's pure logic (kiosk-review-flow.md): the screen state machine. No I/O.
public enum KioskRules {}
