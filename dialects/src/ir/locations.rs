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

/// A source position: file name, line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourcePosition {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

/// The source position `location` stands for, as upstream's line-info pass
/// finds it: a file location itself, a name's child, the first of a fused
/// location's parts, a call site's callee (the innermost code); `None` for an
/// unknown location.
pub fn source_position(location: Location) -> Option<SourcePosition> {
    // SAFETY: a live location; each accessor is used only on its own kind.
    unsafe {
        let raw = location.to_raw();
        if mlir_sys::mlirLocationIsAFileLineColRange(raw) {
            let file = crate::access::string_ref_text(mlir_sys::mlirIdentifierStr(
                mlir_sys::mlirLocationFileLineColRangeGetFilename(raw),
            ));
            let line = mlir_sys::mlirLocationFileLineColRangeGetStartLine(raw).max(0) as u32;
            let column = mlir_sys::mlirLocationFileLineColRangeGetStartColumn(raw).max(0) as u32;
            return Some(SourcePosition { file, line, column });
        }
        if mlir_sys::mlirLocationIsAName(raw) {
            return source_position(Location::from_raw(mlir_sys::mlirLocationNameGetChildLoc(raw)));
        }
        if mlir_sys::mlirLocationIsACallSite(raw) {
            return source_position(Location::from_raw(mlir_sys::mlirLocationCallSiteGetCallee(raw)));
        }
        if mlir_sys::mlirLocationIsAFused(raw) && mlir_sys::mlirLocationFusedGetNumLocations(raw) > 0 {
            let mut parts = vec![
                mlir_sys::mlirLocationUnknownGet(mlir_sys::mlirLocationGetContext(raw));
                mlir_sys::mlirLocationFusedGetNumLocations(raw) as usize
            ];
            mlir_sys::mlirLocationFusedGetLocations(raw, parts.as_mut_ptr());
            return source_position(Location::from_raw(parts[0]));
        }
        None
    }
}

/// The (callee, caller) of a call-site location (code inlined from a call);
/// `None` for other kinds.
pub fn call_site_parts<'c>(location: Location<'c>) -> Option<(Location<'c>, Location<'c>)> {
    // SAFETY: a live location; the accessors are used only on a call site.
    unsafe {
        let raw = location.to_raw();
        mlir_sys::mlirLocationIsACallSite(raw).then(|| {
            (
                Location::from_raw(mlir_sys::mlirLocationCallSiteGetCallee(raw)),
                Location::from_raw(mlir_sys::mlirLocationCallSiteGetCaller(raw)),
            )
        })
    }
}

/// The call-site location of `callee` code inlined at `caller`.
pub fn call_site<'c>(callee: Location<'c>, caller: Location<'c>) -> Location<'c> {
    // SAFETY: two live locations of one context.
    unsafe { Location::from_raw(mlir_sys::mlirLocationCallSiteGet(callee.to_raw(), caller.to_raw())) }
}

/// `location` fused with `metadata` (a debug-info scope, for instance).
pub fn fused_with<'c>(location: Location<'c>, metadata: melior::ir::Attribute<'c>) -> Location<'c> {
    // SAFETY: a live location and attribute of one context; one location.
    unsafe {
        let raw = location.to_raw();
        Location::from_raw(mlir_sys::mlirLocationFusedGet(
            mlir_sys::mlirLocationGetContext(raw),
            1,
            &raw,
            melior::ir::attribute::AttributeLike::to_raw(&metadata),
        ))
    }
}

/// The metadata of a fused location (null for other kinds and for fused
/// locations without metadata).
pub fn fused_metadata<'c>(location: Location<'c>) -> Option<melior::ir::Attribute<'c>> {
    // SAFETY: a live location; the metadata accessor is used only on a fused one.
    unsafe {
        let raw = location.to_raw();
        if !mlir_sys::mlirLocationIsAFused(raw) {
            return None;
        }
        let metadata = mlir_sys::mlirLocationFusedGetMetadata(raw);
        (!metadata.ptr.is_null()).then(|| melior::ir::Attribute::from_raw(metadata))
    }
}

/// Gives `op` the location `location`.
pub fn set_location(op: &melior::ir::OperationRef, location: Location) {
    // SAFETY: a live op and location of one context.
    unsafe { mlir_sys::mlirOperationSetLocation(op.to_raw(), location.to_raw()) }
}

/// The name and the child of a name location (`loc("name"(child))`, the
/// frontend's location of an op that defines a source variable).
pub fn name_location_parts(location: Location) -> Option<(String, Location)> {
    // SAFETY: a live location, read as a name location only when it is one.
    unsafe {
        let raw = location.to_raw();
        if !mlir_sys::mlirLocationIsAName(raw) {
            return None;
        }
        let name = crate::access::string_ref_text(mlir_sys::mlirIdentifierStr(mlir_sys::mlirLocationNameGetName(raw)));
        Some((name, Location::from_raw(mlir_sys::mlirLocationNameGetChildLoc(raw))))
    }
}
