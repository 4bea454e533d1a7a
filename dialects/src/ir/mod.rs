//! The IR-access layer: the one place outside the FFI modules where Rust code
//! calls the MLIR C API (`mlir_sys`) directly, for what melior does not offer
//! or offers only on owned/mutable handles. Passes use these functions and
//! melior's safe API; they contain no `unsafe` MLIR calls of their own.
//!
//! Handles follow melior's lifetimes: `'c` is the context's, `'a` the IR's
//! (the module or op that owns the block an `OperationRef<'c, 'a>`,
//! `BlockRef<'c, 'a>` or `Value<'c, 'a>` lives in). These handles are not
//! owning and MLIR does not track them, so the rules MLIR's C++ users know
//! apply here too:
//!
//! - Erasing an op ([`erase`]) or a block argument ([`erase_block_argument`])
//!   invalidates every handle to it and to what it holds; collect what is to be
//!   erased first, erase last.
//! - A use list changes under [`set_operand`] and [`replace_all_uses`]:
//!   [`uses`] and [`users`] return snapshots (vectors) for that reason, as do
//!   [`block_ops`] and [`collect_ops`] for op lists.
//! - `ContextRef::to_ref` returns a reference into the `ContextRef` itself:
//!   keep the `ContextRef` in a local, or use [`context_of`], which hands out a
//!   `&'c Context` that stays valid.
//!
//! - [`ops`]: names, operands, moving, cloning, erasing, attributes of ops,
//!   building ops by name, enclosing ops.
//! - [`values`]: uses, defining ops, block arguments' owners, retyping, RAUW,
//!   identity keys, value maps.
//! - [`blocks`]: the ops and arguments of blocks, regions' bodies.
//! - [`attributes`]: reading and making integer, float, unit, array, dense and
//!   symbol attributes.
//! - [`types`]: kinds and widths of builtin scalar types, the elements of
//!   shaped types, LLVM struct and function types.
//! - [`locations`]: file, line and column of a location; call sites, fused
//!   locations, setting an op's location.
//! - [`debug_info`]: `#llvm.di_*` attributes (line tables).
//! - [`modules`]: `Module` views of module ops, translation to LLVM IR.
//! - [`handles`]: copyable lifetime-free handles for IR builders that keep
//!   many values in maps.
//! - [`drivers`]: running textual pass pipelines and the greedy pattern
//!   driver on an op.

pub mod attributes;
pub mod blocks;
pub mod debug_info;
pub mod drivers;
pub mod handles;
pub mod locations;
pub mod modules;
pub mod ops;
pub mod types;
pub mod values;

pub use attributes::*;
pub use blocks::*;
pub use debug_info::*;
pub use drivers::*;
pub use locations::*;
pub use modules::*;
pub use ops::*;
pub use types::*;
pub use values::*;
