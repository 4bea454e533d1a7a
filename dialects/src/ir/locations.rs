//! Locations: where in the source an op came from.
use melior::ir::Location;

/// The file name and line of `location`, looking through call sites (the
/// callee's) and names (their child); `None` for unknown and fused
/// locations.
pub fn file_and_line(location: Location) -> Option<(String, u32)> {
    // SAFETY: a live location; each accessor is used only on its own kind.
    unsafe {
        let mut raw = location.to_raw();
        while mlir_sys::mlirLocationIsACallSite(raw) {
            raw = mlir_sys::mlirLocationCallSiteGetCallee(raw);
        }
        while mlir_sys::mlirLocationIsAName(raw) {
            raw = mlir_sys::mlirLocationNameGetChildLoc(raw);
        }
        if !mlir_sys::mlirLocationIsAFileLineColRange(raw) {
            return None;
        }
        let file = crate::access::string_ref_text(mlir_sys::mlirIdentifierStr(
            mlir_sys::mlirLocationFileLineColRangeGetFilename(raw),
        ));
        let line = mlir_sys::mlirLocationFileLineColRangeGetStartLine(raw);
        Some((file, line.max(0) as u32))
    }
}
