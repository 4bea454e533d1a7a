//! Layout attributes as typed Rust values (`tritium_layout::Layout`) and back.
//!
//! The C++ side turns a layout attribute into a builtin dictionary
//! (`{kind = "blocked", sizePerThread = [...], ...}`) and back; this module
//! maps that dictionary to and from the structs of the `tritium-layout` crate,
//! which hold the layout algebra.
use crate::access::integer_attribute;
use crate::ffi;
use melior::{
    ir::{
        attribute::{ArrayAttribute, BoolAttribute, DictionaryAttribute, IntegerAttribute, StringAttribute},
        r#type::IntegerType,
        Attribute, AttributeLike, Identifier, Location,
    },
    Context,
};
use tritium_layout::{
    Bases, Blocked, CtaLayout, Dim, DotOperand, Layout, LinearLayout, NvidiaMma, NvmmaShared, Slice, SwizzledShared,
};

/// Why an attribute could not be read as a layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotALayout(pub String);

impl std::fmt::Display for NotALayout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Reads a ttg layout attribute (`#ttg.blocked<...>`, `#ttg.slice<...>`, ...).
pub fn layout_of(attribute: Attribute) -> Result<Layout, NotALayout> {
    let raw = unsafe { ffi::tritiumLayoutToDictionary(attribute.to_raw()) };
    let Some(dictionary) = (unsafe { Attribute::from_option_raw(raw) }) else {
        return Err(NotALayout(format!("{attribute} is not a ttg layout")));
    };
    let dictionary =
        DictionaryAttribute::try_from(dictionary).map_err(|_| NotALayout("layout dictionary expected".into()))?;
    Reader { dictionary }.layout()
}

/// The `(interval, padding)` pairs of a `#ttg.padded_shared` encoding
/// (`[256:+8]`: 8 elements of padding after every 256), or `None` for any
/// other attribute. The layout kinds do not model padded layouts (upstream
/// uses them for AMD targets); the allocator needs their size.
pub fn padded_shared_intervals(attribute: Attribute) -> Option<Vec<(u32, u32)>> {
    let raw = unsafe { ffi::tritiumLayoutToDictionary(attribute.to_raw()) };
    let dictionary = DictionaryAttribute::try_from(unsafe { Attribute::from_option_raw(raw) }?).ok()?;
    let reader = Reader { dictionary };
    if reader.string("kind").ok()? != "padded_shared" {
        return None;
    }
    let intervals = reader.ints("intervals").ok()?;
    let paddings = reader.ints("paddings").ok()?;
    Some(intervals.into_iter().zip(paddings).collect())
}

/// Builds the attribute for `layout`. `None`, with a diagnostic at `location`,
/// when the layout's parameters are invalid.
pub fn attribute_of<'c>(layout: &Layout, location: Location<'c>) -> Option<Attribute<'c>> {
    // `to_ref` borrows the ContextRef: keep it alive in a local.
    let context_ref = location.context();
    let context = unsafe { context_ref.to_ref() };
    let dictionary = Writer { context, location }.layout(layout)?;
    let raw = unsafe { ffi::tritiumLayoutFromDictionary(location.to_raw(), dictionary.to_raw()) };
    unsafe { Attribute::from_option_raw(raw) }
}

/// The elements of an array attribute. (melior 0.27's `ArrayAttribute::try_from`
/// tests for a dense i64 array instead, so it cannot be used here.)
fn array_elements(attribute: Attribute<'_>) -> Option<Vec<Attribute<'_>>> {
    use mlir_sys::{mlirArrayAttrGetElement, mlirArrayAttrGetNumElements, mlirAttributeIsAArray};
    let raw = attribute.to_raw();
    // SAFETY: `raw` is a live attribute; elements are read only when it is an array.
    unsafe {
        mlirAttributeIsAArray(raw).then(|| {
            (0..mlirArrayAttrGetNumElements(raw))
                .map(|i| Attribute::from_raw(mlirArrayAttrGetElement(raw, i)))
                .collect()
        })
    }
}

struct Reader<'c> {
    dictionary: DictionaryAttribute<'c>,
}

impl<'c> Reader<'c> {
    fn get(&self, key: &str) -> Result<Attribute<'c>, NotALayout> {
        self.dictionary.element_by_name(key).ok_or_else(|| NotALayout(format!("layout dictionary lacks '{key}'")))
    }

    fn string(&self, key: &str) -> Result<String, NotALayout> {
        crate::access::string_attribute_value(self.get(key)?)
            .ok_or_else(|| NotALayout(format!("'{key}' is not a string")))
    }

    fn int(&self, key: &str) -> Result<u32, NotALayout> {
        let value =
            integer_attribute(self.get(key)?).map_err(|_| NotALayout(format!("'{key}' is not an integer")))?.value();
        u32::try_from(value).map_err(|_| NotALayout(format!("'{key}' is out of range")))
    }

    fn bool(&self, key: &str) -> Result<bool, NotALayout> {
        use mlir_sys::{mlirAttributeIsABool, mlirBoolAttrGetValue};
        let raw = self.get(key)?.to_raw();
        // SAFETY: a live attribute, read as a bool only when it is one.
        // (melior's `BoolAttribute::try_from` tests for a string instead.)
        unsafe { mlirAttributeIsABool(raw).then(|| mlirBoolAttrGetValue(raw)) }
            .ok_or_else(|| NotALayout(format!("'{key}' is not a boolean")))
    }

    fn ints(&self, key: &str) -> Result<Vec<u32>, NotALayout> {
        let elements = array_elements(self.get(key)?).ok_or_else(|| NotALayout(format!("'{key}' is not an array")))?;
        elements
            .into_iter()
            .map(|element| {
                let value =
                    integer_attribute(element).map_err(|_| NotALayout(format!("'{key}' holds a non-integer")))?.value();
                u32::try_from(value).map_err(|_| NotALayout(format!("'{key}' is out of range")))
            })
            .collect()
    }

    /// Flat bases, `rank` entries each.
    fn bases(&self, key: &str, rank: usize) -> Result<Bases, NotALayout> {
        let flat = self.ints(key)?;
        if rank == 0 {
            return Ok(Vec::new());
        }
        Ok(flat.chunks(rank).map(<[u32]>::to_vec).collect())
    }

    fn parent(&self) -> Result<Layout, NotALayout> {
        layout_of(self.get("parent")?)
    }

    fn cta(&self, rank: usize) -> Result<CtaLayout, NotALayout> {
        let bases = self.bases("cgaBases", rank)?;
        if bases.is_empty() {
            return Ok(CtaLayout::single_cta(rank));
        }
        CtaLayout::from_bases(bases, rank).map_err(|e| NotALayout(e.to_string()))
    }

    fn layout(&self) -> Result<Layout, NotALayout> {
        let kind = self.string("kind")?;
        Ok(match kind.as_str() {
            "blocked" => {
                let order = self.ints("order")?;
                let cta = self.cta(order.len())?;
                Layout::Blocked(
                    Blocked::new(
                        &self.ints("sizePerThread")?,
                        &self.ints("threadsPerWarp")?,
                        &self.ints("warpsPerCTA")?,
                        &order,
                    )
                    .with_cta(cta),
                )
            }
            "slice" => Layout::Slice(Slice { dim: self.int("dim")?, parent: Box::new(self.parent()?) }),
            "dot_op" => Layout::DotOperand(DotOperand::new(self.int("opIdx")?, self.parent()?, self.int("kWidth")?)),
            "nvidia_mma" => {
                let warps = self.ints("warpsPerCTA")?;
                let cta = self.cta(warps.len())?;
                Layout::NvidiaMma(
                    NvidiaMma::new(
                        self.int("versionMajor")?,
                        self.int("versionMinor")?,
                        &warps,
                        &self.ints("instrShape")?,
                    )
                    .with_cta(cta),
                )
            }
            "swizzled_shared" => {
                let order = self.ints("order")?;
                let cta = self.cta(order.len())?;
                Layout::SwizzledShared(SwizzledShared {
                    vec: self.int("vec")?,
                    per_phase: self.int("perPhase")?,
                    max_phase: self.int("maxPhase")?,
                    order,
                    cta,
                })
            }
            "nvmma_shared" => {
                let rank = self.int("rank")? as usize;
                Layout::NvmmaShared(
                    NvmmaShared::new(
                        self.int("swizzlingByteWidth")?,
                        self.bool("transposed")?,
                        self.int("elementBitWidth")?,
                        self.bool("fp4Padded")?,
                        rank,
                    )
                    .with_cta(self.cta(rank)?),
                )
            }
            "linear" => {
                let rank = self.int("rank")? as usize;
                let in_dims = vec![
                    (Dim::Register, self.bases("register", rank)?),
                    (Dim::Lane, self.bases("lane", rank)?),
                    (Dim::Warp, self.bases("warp", rank)?),
                    (Dim::Block, self.bases("block", rank)?),
                ];
                let out_dims = (0..rank).map(Dim::Axis).collect();
                Layout::Linear(
                    LinearLayout::with_inferred_sizes(in_dims, out_dims).map_err(|e| NotALayout(e.to_string()))?,
                )
            }
            other => return Err(NotALayout(format!("'{other}' is not a layout"))),
        })
    }
}

struct Writer<'c> {
    context: &'c Context,
    location: Location<'c>,
}

impl<'c> Writer<'c> {
    fn int(&self, value: u32) -> Attribute<'c> {
        IntegerAttribute::new(IntegerType::new(self.context, 64).into(), value as i64).into()
    }

    fn ints(&self, values: &[u32]) -> Attribute<'c> {
        let elements: Vec<Attribute> = values.iter().map(|v| self.int(*v)).collect();
        ArrayAttribute::new(self.context, &elements).into()
    }

    fn bases(&self, bases: &Bases) -> Attribute<'c> {
        self.ints(&bases.iter().flatten().copied().collect::<Vec<_>>())
    }

    fn cta(&self, cta: &CtaLayout) -> Attribute<'c> {
        // A single CTA is the empty list, which the attribute does not print.
        self.bases(cta.bases())
    }

    fn dictionary(&self, kind: &str, entries: Vec<(&str, Attribute<'c>)>) -> Attribute<'c> {
        let mut named = vec![(Identifier::new(self.context, "kind"), StringAttribute::new(self.context, kind).into())];
        named.extend(entries.into_iter().map(|(k, v)| (Identifier::new(self.context, k), v)));
        DictionaryAttribute::new(self.context, &named).into()
    }

    fn layout(&self, layout: &Layout) -> Option<Attribute<'c>> {
        Some(match layout {
            Layout::Blocked(b) => self.dictionary(
                "blocked",
                vec![
                    ("sizePerThread", self.ints(&b.size_per_thread)),
                    ("threadsPerWarp", self.ints(&b.threads_per_warp)),
                    ("warpsPerCTA", self.ints(&b.warps_per_cta)),
                    ("order", self.ints(&b.order)),
                    ("cgaBases", self.cta(&b.cta)),
                ],
            ),
            Layout::Slice(s) => self.dictionary(
                "slice",
                vec![("dim", self.int(s.dim)), ("parent", attribute_of(&s.parent, self.location)?)],
            ),
            Layout::DotOperand(d) => self.dictionary(
                "dot_op",
                vec![
                    ("opIdx", self.int(d.op_idx)),
                    ("parent", attribute_of(&d.parent, self.location)?),
                    ("kWidth", self.int(d.k_width)),
                ],
            ),
            Layout::NvidiaMma(m) => self.dictionary(
                "nvidia_mma",
                vec![
                    ("versionMajor", self.int(m.version_major)),
                    ("versionMinor", self.int(m.version_minor)),
                    ("warpsPerCTA", self.ints(&m.warps_per_cta)),
                    ("instrShape", self.ints(&m.instr_shape)),
                    ("cgaBases", self.cta(&m.cta)),
                ],
            ),
            Layout::SwizzledShared(s) => self.dictionary(
                "swizzled_shared",
                vec![
                    ("vec", self.int(s.vec)),
                    ("perPhase", self.int(s.per_phase)),
                    ("maxPhase", self.int(s.max_phase)),
                    ("order", self.ints(&s.order)),
                    ("cgaBases", self.cta(&s.cta)),
                ],
            ),
            Layout::NvmmaShared(n) => self.dictionary(
                "nvmma_shared",
                vec![
                    ("swizzlingByteWidth", self.int(n.swizzling_byte_width)),
                    ("transposed", BoolAttribute::new(self.context, n.transposed).into()),
                    ("elementBitWidth", self.int(n.element_bit_width)),
                    ("fp4Padded", BoolAttribute::new(self.context, n.fp4_padded).into()),
                    ("rank", self.int(n.cta.rank() as u32)),
                    ("cgaBases", self.cta(&n.cta)),
                ],
            ),
            Layout::Linear(l) => {
                let rank = l.num_out_dims() as u32;
                let bases = |dim: Dim| self.bases(l.bases(&dim).unwrap_or(&Vec::new()));
                self.dictionary(
                    "linear",
                    vec![
                        ("rank", self.int(rank)),
                        ("register", bases(Dim::Register)),
                        ("lane", bases(Dim::Lane)),
                        ("warp", bases(Dim::Warp)),
                        ("block", bases(Dim::Block)),
                    ],
                )
            }
        })
    }
}
