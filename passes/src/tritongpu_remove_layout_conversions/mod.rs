//! `tritongpu-remove-layout-conversions`: removes `ttg.convert_layout` ops
//! by choosing better layouts (upstream RemoveLayoutConversions.cpp).
//!
//! 1. [`propagation`]: the layouts of anchor ops (memory ops, dots, ...)
//!    flow forward to the ops computed from them; conversions that cancel
//!    are folded.
//! 2. [`remat`]: each remaining conversion is removed by recomputing its
//!    source in the target layout where that is cheaper; repeated until
//!    nothing changes.
//! 3. [`hoist`]: what remains moves before widening ops and broadcasts,
//!    into single `scf.if` branches, and next to the loads of dot operands.
//! 4. [`cleanup`]: dead loop arguments and redundant conversions go.
//!
//! Layouts are compared as attributes and computed with `tritium_layout`;
//! the IR is rewritten in the same order as upstream, so the output is
//! upstream's op for op.
pub(crate) mod cleanup;
mod hoist;
mod ir;
mod layouts;
pub(crate) mod ops;
mod propagation;
mod remat;
mod scf;
mod slice;

use crate::ir::{collect_ops, fail, name_of, Order};
use layouts::Layouts;
use melior::ir::{operation::OperationLike, OperationRef};
use propagation::LayoutPropagation;
use remat::Rematerialization;
use tritium_dialects::pass::{PassDefinition, PassFailed, PassOptions, PassResult};

/// The result of a step of a phase; the error says what went wrong, to be
/// reported on the op the step worked on.
type Step<T> = Result<T, String>;

pub static PASS: PassDefinition = PassDefinition {
    argument: "tritongpu-remove-layout-conversions",
    description: "Remove layout conversions: propagate anchor layouts, rematerialize sources, hoist the rest",
    anchor: "builtin.module",
    options: &[],
    run,
};

fn run(module: OperationRef, _options: &PassOptions) -> PassResult {
    let functions: Vec<OperationRef> =
        collect_ops(module, Order::Post).into_iter().filter(|op| name_of(op) == "tt.func").collect();
    let mut layouts = Layouts::new(module.location());

    for &function in &functions {
        LayoutPropagation::new(function, &mut layouts).run().map_err(|e| fail(&function, e))?;
    }
    cleanup::canonicalize(module).map_err(|e| fail(&module, e))?;

    // Removing a conversion can make another one removable.
    while rematerialize(&functions, &mut layouts)? {
        cleanup::canonicalize(module).map_err(|e| fail(&module, e))?;
    }
    cleanup::canonicalize(module).map_err(|e| fail(&module, e))?;

    for &function in &functions {
        for hoist in [Hoist::OverExtOrBroadcast, Hoist::IntoConditionals, Hoist::DotOperand] {
            hoist_conversions(function, hoist, &mut layouts)?;
        }
    }
    cleanup::final_cleanup(module).map_err(|e| fail(&module, e))
}

/// One round of backward rematerialisation over every conversion; `true`
/// if a conversion was removed.
fn rematerialize<'c>(functions: &[OperationRef<'c, '_>], layouts: &mut Layouts<'c>) -> Result<bool, PassFailed> {
    let mut changed = false;
    for &function in functions {
        let mut remat = Rematerialization::new(function, layouts);
        for convert in remat.conversions() {
            remat.backward_rematerialize(convert).map_err(|e| fail(&convert, e))?;
            changed |= !remat.remember_if_kept(convert);
        }
        remat.cleanup().map_err(|e| fail(&function, e))?;
    }
    Ok(changed)
}

/// Which place the conversions that remain are moved to.
#[derive(Clone, Copy)]
enum Hoist {
    OverExtOrBroadcast,
    IntoConditionals,
    DotOperand,
}

fn hoist_conversions<'c>(function: OperationRef<'c, '_>, hoist: Hoist, layouts: &mut Layouts<'c>) -> PassResult {
    let mut remat = Rematerialization::new(function, layouts);
    for convert in remat.conversions() {
        match hoist {
            Hoist::OverExtOrBroadcast => remat.hoist_over_ext_or_broadcast(convert),
            Hoist::IntoConditionals => remat.hoist_into_conditionals(convert),
            Hoist::DotOperand => remat.hoist_dot_operand(convert),
        }
        .map_err(|e| fail(&convert, e))?;
        remat.remember_if_kept(convert);
    }
    remat.cleanup().map_err(|e| fail(&function, e))
}
