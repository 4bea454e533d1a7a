//! The sanitizer's generated code as MLIR text: the helper functions and the
//! set-up of its state are written as `tt`/`arith`/`cf` ops with a small
//! text builder ([`Body`]), parsed, and moved into the module. Text keeps
//! each helper readable as the tensor program it is; the parser checks it.
use std::fmt;

/// Threads per warp of every layout the sanitizer makes (NVIDIA only).
const THREADS_PER_WARP: i64 = 32;

/// A module holding `body` (ops of a function run by `num_warps` warps),
/// for the parser: the layouts are checked against its warps.
pub fn module_text(num_warps: i64, num_ctas: i64, body: &str) -> String {
    format!(
        "module attributes {{\"ttg.num-warps\" = {num_warps} : i32, \"ttg.num-ctas\" = {num_ctas} : i32, \"ttg.threads-per-warp\" = {THREADS_PER_WARP} : i32}} {{\n{body}\n}}"
    )
}

/// A scalar or ranked-tensor type, as text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ty {
    /// Empty for a scalar.
    pub shape: Vec<i64>,
    pub element: String,
    pub layout: Option<String>,
}

impl Ty {
    pub fn scalar(element: &str) -> Ty {
        Ty { shape: Vec::new(), element: element.to_string(), layout: None }
    }

    /// The sanitizer's state layouts: a 1-D tensor held whole by every
    /// thread, or a 2-D one whose rows each thread holds whole and whose
    /// columns are spread over the lanes (upstream's thread-local blocked
    /// layouts, so that a row's reduction needs no shared memory).
    pub fn state(shape: &[i64], bits: u32, num_warps: i64) -> Ty {
        let layout = match shape {
            [n] => format!(
                "#ttg.blocked<{{sizePerThread = [{n}], threadsPerWarp = [{THREADS_PER_WARP}], warpsPerCTA = [{num_warps}], order = [0]}}>"
            ),
            [m, n] => format!(
                "#ttg.blocked<{{sizePerThread = [{m}, {n}], threadsPerWarp = [1, {THREADS_PER_WARP}], warpsPerCTA = [1, {num_warps}], order = [0, 1]}}>"
            ),
            _ => unreachable!("state tensors are 1-D or 2-D"),
        };
        Ty { shape: shape.to_vec(), element: format!("i{bits}"), layout: Some(layout) }
    }

    pub fn is_tensor(&self) -> bool {
        !self.shape.is_empty()
    }

    pub fn with_element(&self, element: &str) -> Ty {
        Ty { element: element.to_string(), ..self.clone() }
    }

    pub fn with_layout(&self, layout: String) -> Ty {
        Ty { layout: Some(layout), ..self.clone() }
    }

    pub fn with_shape(&self, shape: Vec<i64>) -> Ty {
        Ty { shape, ..self.clone() }
    }

    /// Bits of the (integer) element.
    pub fn bits(&self) -> u32 {
        self.element.trim_start_matches('i').parse().unwrap_or(64)
    }

    pub fn elements(&self) -> i64 {
        self.shape.iter().product()
    }

    /// `!tt.ptr<element>`.
    pub fn pointer_to(&self) -> Ty {
        Ty::scalar(&format!("!tt.ptr<{}>", self.element))
    }

    /// The layout of dimension `dim` alone: every other dimension sliced
    /// away, innermost-numbered first (upstream's single-dim slice).
    fn dim_layout(&self, dim: usize) -> String {
        let mut layout = self.layout.clone().expect("a tensor");
        for other in 0..self.shape.len() {
            if other != dim {
                layout = slice(other, &layout);
            }
        }
        layout
    }
}

/// `#ttg.slice<{dim = dim, parent = parent}>`.
fn slice(dim: usize, parent: &str) -> String {
    format!("#ttg.slice<{{dim = {dim}, parent = {parent}}}>")
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.is_tensor() {
            return write!(f, "{}", self.element);
        }
        write!(f, "tensor<")?;
        for d in &self.shape {
            write!(f, "{d}x")?;
        }
        write!(f, "{}", self.element)?;
        if let Some(layout) = &self.layout {
            write!(f, ", {layout}")?;
        }
        write!(f, ">")
    }
}

/// An SSA value of the text being built.
#[derive(Clone, Debug)]
pub struct V {
    pub name: String,
    pub ty: Ty,
}

/// A function body (or a straight-line snippet) being written.
#[derive(Default)]
pub struct Body {
    lines: Vec<String>,
    next: usize,
    next_block: usize,
}

impl Body {
    pub fn new() -> Body {
        Body::default()
    }

    pub fn text(&self) -> String {
        self.lines.join("\n")
    }

    pub fn line(&mut self, text: String) {
        self.lines.push(format!("  {text}"));
    }

    /// `%vN = rhs`, of type `ty`.
    pub fn emit(&mut self, rhs: String, ty: Ty) -> V {
        let name = format!("%v{}", self.next);
        self.next += 1;
        self.line(format!("{name} = {rhs}"));
        V { name, ty }
    }

    /// Opens `if (pred) {`: returns the label of the block after it, for
    /// [`Body::end_if`].
    pub fn begin_if(&mut self, pred: &V) -> usize {
        let (then, after) = (self.next_block + 1, self.next_block + 2);
        self.next_block += 2;
        self.line(format!("cf.cond_br {}, ^bb{then}, ^bb{after}", pred.name));
        self.lines.push(format!("^bb{then}:"));
        after
    }

    pub fn end_if(&mut self, after: usize) {
        self.line(format!("cf.br ^bb{after}"));
        self.lines.push(format!("^bb{after}:"));
    }

    pub fn int(&mut self, value: i64, bits: u32) -> V {
        let text = constant_text(value, bits);
        // A bool constant is written without its type.
        let suffix = if bits == 1 { String::new() } else { format!(" : i{bits}") };
        self.emit(format!("arith.constant {text}{suffix}"), Ty::scalar(&format!("i{bits}")))
    }

    /// A tensor of `ty` filled with `value` (two's complement for negative
    /// values, as upstream's unsigned APInt).
    pub fn splat_constant(&mut self, value: i64, ty: &Ty) -> V {
        let text = constant_text(value, ty.bits());
        self.emit(format!("arith.constant dense<{text}> : {ty}"), ty.clone())
    }

    pub fn splat(&mut self, scalar: &V, ty: &Ty) -> V {
        let ty = ty.with_element(&scalar.ty.element);
        self.emit(format!("tt.splat {} : {} -> {ty}", scalar.name, scalar.ty), ty)
    }

    /// `arith.<name> a, b` (both of one type).
    pub fn binary(&mut self, name: &str, a: &V, b: &V) -> V {
        self.emit(format!("arith.{name} {}, {} : {}", a.name, b.name, a.ty), a.ty.clone())
    }

    pub fn and(&mut self, a: &V, b: &V) -> V {
        self.binary("andi", a, b)
    }

    pub fn or(&mut self, a: &V, b: &V) -> V {
        self.binary("ori", a, b)
    }

    pub fn xor(&mut self, a: &V, b: &V) -> V {
        self.binary("xori", a, b)
    }

    pub fn cmp(&mut self, predicate: &str, a: &V, b: &V) -> V {
        let ty = a.ty.with_element("i1");
        self.emit(format!("arith.cmpi {predicate}, {}, {} : {}", a.name, b.name, a.ty), ty)
    }

    pub fn select(&mut self, condition: &V, a: &V, b: &V) -> V {
        let types = if condition.ty.is_tensor() { format!("{}, {}", condition.ty, a.ty) } else { a.ty.to_string() };
        self.emit(format!("arith.select {}, {}, {} : {types}", condition.name, a.name, b.name), a.ty.clone())
    }

    /// Zero-extends or truncates the integer `value` to `element`.
    pub fn resize(&mut self, value: &V, element: &str) -> V {
        let to = value.ty.with_element(element);
        let (from_bits, to_bits) = (value.ty.bits(), to.bits());
        if from_bits == to_bits {
            return value.clone();
        }
        let op = if from_bits < to_bits { "extui" } else { "trunci" };
        self.emit(format!("arith.{op} {} : {} to {to}", value.name, value.ty), to)
    }

    pub fn convert_layout(&mut self, value: &V, layout: &str) -> V {
        let to = value.ty.with_layout(layout.to_string());
        if to == value.ty {
            return value.clone();
        }
        self.emit(format!("ttg.convert_layout {} : {} -> {to}", value.name, value.ty), to)
    }

    /// Undoes a slice layout: a size-1 dimension at the slice's position.
    fn expand_dims(&mut self, value: &V, axis: usize, parent: String) -> V {
        let mut shape = value.ty.shape.clone();
        shape.insert(axis, 1);
        let to = Ty { shape, element: value.ty.element.clone(), layout: Some(parent) };
        self.emit(format!("tt.expand_dims {} {{axis = {axis} : i32}} : {} -> {to}", value.name, value.ty), to)
    }

    pub fn broadcast(&mut self, value: &V, shape: &[i64]) -> V {
        if value.ty.shape == shape {
            return value.clone();
        }
        let to = value.ty.with_shape(shape.to_vec());
        self.emit(format!("tt.broadcast {} : {} -> {to}", value.name, value.ty), to)
    }

    /// `0, 1, ..., n-1` as i32 in `layout`.
    pub fn range(&mut self, n: i64, layout: String) -> V {
        let ty = Ty { shape: vec![n], element: "i32".into(), layout: Some(layout) };
        self.emit(format!("tt.make_range {{end = {n} : i32, start = 0 : i32}} : {ty}"), ty)
    }

    /// The bitwise or of `value` along `axis`.
    pub fn or_reduce(&mut self, value: &V, axis: usize) -> V {
        let element = &value.ty.element;
        let mut shape = value.ty.shape.clone();
        shape.remove(axis);
        let layout = slice(axis, value.ty.layout.as_ref().expect("a tensor"));
        let to = if shape.is_empty() {
            Ty::scalar(element)
        } else {
            Ty { shape, element: element.clone(), layout: Some(layout) }
        };
        self.emit(
            format!(
                "\"tt.reduce\"({}) <{{axis = {axis} : i32}}> ({{\n  ^bb0(%lhs: {element}, %rhs: {element}):\n    %or = arith.ori %lhs, %rhs : {element}\n    tt.reduce.return %or : {element}\n  }}) : ({}) -> {to}",
                value.name, value.ty
            ),
            to,
        )
    }

    /// `tensor` (1-D) compared with the scalar `scalar`.
    pub fn cmp_with_scalar(&mut self, predicate: &str, tensor: &V, scalar: &V) -> V {
        let splat = self.splat(scalar, &tensor.ty);
        self.cmp(predicate, tensor, &splat)
    }

    /// A 1-D tensor along dimension `dim` of the 2-D `target`, converted to
    /// its slice layout, expanded and broadcast to `target`'s shape.
    pub fn spread(&mut self, value: &V, dim: usize, target: &Ty) -> V {
        let parent = target.layout.clone().expect("a tensor");
        let sliced = self.convert_layout(value, &slice(dim, &parent));
        let expanded = self.expand_dims(&sliced, dim, parent);
        self.broadcast(&expanded, &target.shape)
    }

    /// The i1 mask of `target`'s (2-D) column `column` (a scalar i32).
    pub fn column_mask(&mut self, column: &V, target: &Ty) -> V {
        let columns = self.range(target.shape[1], target.dim_layout(1));
        let splat = self.splat(column, &columns.ty);
        let mask = self.cmp("eq", &columns, &splat);
        self.spread(&mask, 0, target)
    }

    /// The i1 mask of the columns of `target` whose bit is set in the
    /// scalar `mask`.
    pub fn thread_columns_mask(&mut self, mask: &V, target: &Ty) -> V {
        let range = self.range(target.shape[1], target.dim_layout(1));
        let range = self.resize(&range, &target.element);
        let indices = self.spread(&range, 0, target);
        let mask = self.resize(mask, &target.element);
        let mask = self.splat(&mask, target);
        let shifted = self.binary("shrui", &mask, &indices);
        let one = self.splat_constant(1, target);
        let bits = self.and(&shifted, &one);
        let zero = self.splat_constant(0, target);
        self.cmp("ne", &bits, &zero)
    }

    /// The i1 mask of the columns of `target` whose index is set in the
    /// compile-time `mask`.
    pub fn constant_columns_mask(&mut self, mask: u64, target: &Ty) -> V {
        let mut result = self.splat_constant(0, &target.with_element("i1"));
        for column in 0..64 {
            if mask & (1u64 << column) != 0 {
                let index = self.int(column, 32);
                let column_mask = self.column_mask(&index, target);
                result = self.or(&result, &column_mask);
            }
        }
        result
    }

    /// Pointers to the elements of `ty` laid out densely (dimension 0
    /// fastest) from the scalar pointer `base`.
    fn pointers(&mut self, base: &V, ty: &Ty) -> V {
        let pointer_tensor =
            Ty { shape: ty.shape.clone(), element: base.ty.element.clone(), layout: ty.layout.clone() };
        let mut pointers =
            self.emit(format!("tt.splat {} : {} -> {pointer_tensor}", base.name, base.ty), pointer_tensor);
        let mut stride = 1;
        for dim in 0..ty.shape.len() {
            let range = self.range(ty.shape[dim], ty.dim_layout(dim));
            let stride_tensor = self.splat_constant(stride, &range.ty);
            let mut offsets = self.binary("muli", &range, &stride_tensor);
            // Undo the slices, innermost (highest-numbered) last sliced first.
            for axis in (0..ty.shape.len()).rev() {
                if axis != dim {
                    let parent = strip_slice(offsets.ty.layout.as_ref().unwrap());
                    offsets = self.expand_dims(&offsets, axis, parent);
                }
            }
            let offsets = self.broadcast(&offsets, &ty.shape);
            pointers = self.emit(
                format!("tt.addptr {}, {} : {}, {}", pointers.name, offsets.name, pointers.ty, offsets.ty),
                pointers.ty.clone(),
            );
            stride *= ty.shape[dim];
        }
        pointers
    }

    /// Loads a tensor of `ty` from global scratch at `base`.
    pub fn load(&mut self, base: &V, ty: &Ty) -> V {
        let pointers = self.pointers(base, ty);
        self.emit(format!("tt.load {} : {}", pointers.name, pointers.ty), ty.clone())
    }

    /// Stores `value` to global scratch at `base`.
    pub fn store(&mut self, base: &V, value: &V) {
        let pointers = self.pointers(base, &value.ty);
        self.line(format!("tt.store {}, {} : {}", pointers.name, value.name, pointers.ty));
    }
}

/// `value` as a literal of an `i<bits>`: `true`/`false` for i1, else the
/// signed value of its low `bits` bits (the parser's range).
fn constant_text(value: i64, bits: u32) -> String {
    match bits {
        1 => (if value & 1 != 0 { "true" } else { "false" }).to_string(),
        64.. => value.to_string(),
        _ => {
            let shift = 64 - bits;
            ((value << shift) >> shift).to_string()
        }
    }
}

/// The parent of a `#ttg.slice<{dim = d, parent = P}>` layout's text.
fn strip_slice(layout: &str) -> String {
    let start = layout.find("parent = ").expect("a slice layout") + "parent = ".len();
    layout[start..layout.len() - 2].to_string()
}
