// Math: the libm functions the library needs, in one place.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@inline(__always) func sinRadians(_ x: Double) -> Double { sin(x) }
@inline(__always) func cosRadians(_ x: Double) -> Double { cos(x) }
@inline(__always) func powDouble(_ x: Double, _ y: Double) -> Double { pow(x, y) }
@inline(__always) func expDouble(_ x: Double) -> Double { exp(x) }
@inline(__always) func logDouble(_ x: Double) -> Double { log(x) }
@inline(__always) func atan2Double(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
@inline(__always) func asinDouble(_ x: Double) -> Double { asin(x) }
@inline(__always) func expm1Double(_ x: Double) -> Double { expm1(x) }
@inline(__always) func log1pDouble(_ x: Double) -> Double { log1p(x) }
@inline(__always) func tanRadians(_ x: Double) -> Double { tan(x) }
@inline(__always) func hypotDouble(_ x: Double, _ y: Double) -> Double { hypot(x, y) }
