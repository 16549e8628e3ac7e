import Testing

@testable import SignDaemon

@Suite("LatenessHistogram")
struct LatenessHistogramTests {
    @Test("quantiles fall within the bucket resolution of the true values")
    func quantiles() {
        var h = LatenessHistogram()
        for us in 1...1000 { h.record(UInt64(us) * 1000) }
        #expect(h.count == 1000 && h.max == 1_000_000)
        let p50 = Double(h.quantile(0.5)), p99 = Double(h.quantile(0.99))
        #expect(abs(p50 - 500_000) / 500_000 < 0.05)
        #expect(abs(p99 - 990_000) / 990_000 < 0.05)
        #expect(h.quantile(1) == 1_000_000)
    }

    @Test("an empty histogram reports zeros")
    func empty() {
        let h = LatenessHistogram()
        #expect(h.quantile(0.5) == 0 && h.max == 0)
    }

    @Test("one late frame among many on-time ones moves the maximum, not the median")
    func outlier() {
        var h = LatenessHistogram()
        for _ in 0..<999 { h.record(50_000) }
        h.record(20_000_000)
        #expect(h.quantile(0.5) < 60_000 && h.max == 20_000_000)
    }
}
