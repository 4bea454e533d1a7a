//! LLVM dialect module -> LLVM IR -> (libdevice linked, O3) -> PTX, through
//! MLIR's LLVM translation and LLVM's NVPTX backend (llvm-sys).
use crate::target::Target;
use llvm_sys::{
    bit_reader::LLVMGetBitcodeModuleInContext2, core::*, prelude::*, target::*, target_machine::*,
    transforms::pass_builder::*,
};
use melior::ir::Module;
use std::{
    ffi::{CStr, CString},
    path::Path,
    ptr,
    sync::Once,
};

fn init_nvptx() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| unsafe {
        LLVMInitializeNVPTXTargetInfo();
        LLVMInitializeNVPTXTarget();
        LLVMInitializeNVPTXTargetMC();
        LLVMInitializeNVPTXAsmPrinter();
        // 32-bit pointers for shared memory (as upstream Triton): shared
        // addresses fit in 32 bits, and 64-bit ones cost a register pair and
        // 64-bit arithmetic for every shared-memory address a thread keeps.
        // The option is read when the NVPTX target machine computes its data
        // layout, so it is set once, before any target machine exists.
        // `-nvptx-mad-wide-opt` (upstream's make_ptx flag) lets instruction
        // selection fold `base + sext(i) * size` into one mad.wide.s32 where
        // it would otherwise keep a mul.wide result and a 64-bit add.
        let arguments = [c"tritium".as_ptr(), c"-nvptx-short-ptr".as_ptr(), c"-nvptx-mad-wide-opt".as_ptr()];
        llvm_sys::support::LLVMParseCommandLineOptions(arguments.len() as i32, arguments.as_ptr(), ptr::null());
    });
}

unsafe fn take_message(message: *mut std::os::raw::c_char) -> String {
    if message.is_null() {
        return String::new();
    }
    let text = unsafe { CStr::from_ptr(message) }.to_string_lossy().into_owned();
    unsafe { LLVMDisposeMessage(message) };
    text
}

/// LLVM IR (text) and PTX of a module in the LLVM dialect.
pub struct Assembly {
    /// The optimised LLVM IR, when asked for (printing it costs time).
    pub llvm_ir: Option<String>,
    pub ptx: String,
    /// Wall time of each step, in order.
    pub timings: Vec<(&'static str, std::time::Duration)>,
}

unsafe extern "C" {
    /// dialects/cpp/LLVMPassGate.cpp: `context` (an LLVMContext) skips the
    /// passes named in `passes`; the gate is destroyed after the context.
    fn tritiumLLVMContextSkipPasses(
        context: *mut std::ffi::c_void,
        passes: *const std::os::raw::c_char,
    ) -> *mut std::ffi::c_void;
    fn tritiumLLVMPassGateDestroy(gate: *mut std::ffi::c_void);
    /// dialects/cpp/LLVMLinkNeeded.cpp: `LLVMLinkModules2` with the linker's
    /// LinkOnlyNeeded flag (consumes `source`; nonzero on error).
    fn tritiumLinkModulesOnlyNeeded(destination: LLVMModuleRef, source: LLVMModuleRef) -> std::os::raw::c_int;
}

/// Above this many strength-reduction candidates (integer adds, multiplies
/// and GEPs) in one basic block, the NVPTX pipeline's `slsr` pass is skipped.
/// LLVM 22's SLSR compares each candidate with the others of its base and
/// stride, so its time grows with the square of their number. Up to here it
/// runs, as upstream's does: a 512x512 tile (~2,000 candidates per block)
/// then takes 1.8 s (`fill_constant_512x512`) to 5-7 s (`masked_fill` and
/// `masked_axpy` 512x512) of SLSR, against upstream's 3.6 s and 14.8 s for the
/// whole compile (about twice that since [`disjoint_ors_to_adds`] lets more
/// of its candidates reuse a basis); without it, ptxas does not
/// strength-reduce a row index times a runtime stride, and
/// `fill_constant_512x512` ran 1.31x upstream's time (512 `mul.lo` per
/// thread where upstream has one and a chain of adds).
/// Beyond the limit (a 1024x1024 tile: ~16x the time) the pass is skipped.
const SLSR_CANDIDATE_LIMIT: usize = 4_096;

/// The largest number of SLSR candidates in one basic block of `module`.
unsafe fn largest_block_candidates(module: LLVMModuleRef) -> usize {
    use llvm_sys::LLVMOpcode::{LLVMAdd, LLVMGetElementPtr, LLVMMul};
    let mut largest = 0;
    unsafe {
        let mut function = LLVMGetFirstFunction(module);
        while !function.is_null() {
            let mut block = LLVMGetFirstBasicBlock(function);
            while !block.is_null() {
                let mut count = 0;
                let mut instruction = LLVMGetFirstInstruction(block);
                while !instruction.is_null() {
                    count +=
                        matches!(LLVMGetInstructionOpcode(instruction), LLVMAdd | LLVMMul | LLVMGetElementPtr) as usize;
                    instruction = LLVMGetNextInstruction(instruction);
                }
                largest = largest.max(count);
                block = LLVMGetNextBasicBlock(block);
            }
            function = LLVMGetNextFunction(function);
        }
    }
    largest
}

/// Rewrites each `or disjoint` of integers of at most 32 bits in `module` as
/// `add nuw nsw` of the same operands (equal where the `or` is defined: no
/// common bits, so no carry and no wrap). Done after O3 (whose InstCombine
/// turns such adds into `or disjoint`), before the NVPTX pipeline.
///
/// LLVM 22's straight-line strength reduction (`slsr`) reuses an earlier
/// candidate (a basis) only where `ScalarEvolution::canReuseInstruction`
/// holds, and that refuses any basis whose operands include an
/// `or disjoint`: SCEV reads it as an add, but SLSR cannot drop the flag
/// and keep the value. A tile's row indices are such ors (`row0 | k` with
/// `row0` a multiple of the tile height), so on `fill_constant_512x512`
/// every row offset `N * (row0 | k)` could only be rewritten from the
/// first, as `mad.lo N, k, x0` (502 of them), and the row addresses not at
/// all. As adds (whose nuw/nsw the reuse check may drop), each row is
/// rewritten from the one before: one add of the stride per row, the
/// addresses a chain of 64-bit adds. ptxas (sm_90a) figures, before ->
/// after (upstream Triton 3.6 on its own PTX):
///   fill_constant_512x512  stack 1864 -> 0 bytes (1344), 255 -> 40
///     registers (254), STL 233 -> 0 (169), SASS 5944 -> 3464 (5816);
///   masked_axpy_512x512  stack 33632 -> 26936 (32904), STL 9442 -> 5861
///     (9365), SASS 33064 -> 24624 (33328);
///   masked_fill_512x512  STL 5156 -> 4661 (6190), SASS 20920 -> 19152
///     (23608), stack 16696 -> 18784 (20424);
///   masked_fill_256x512  STL 2607 -> 2264, SASS 10360 -> 9488;
///   masked_fill_256x256  STL 1044 -> 1056, SASS 4664 -> 4680 (flat);
///   tut08_grouped_matmul 254 -> 182 registers, SASS 1320 -> 928.
/// Over the sm_90 TTGIR corpus no kernel gains spills or SASS instructions.
/// The cost is SLSR time on large tiles (more candidate pairs pass the reuse
/// check, which is most of the pass's time): `tritium compile` 1.8 -> 2.8 s
/// on fill_constant_512x512, 3.4 -> 6.3 s on masked_fill_512x512,
/// 4.5 -> 7.7 s on masked_axpy_512x512, partly repaid in ptxas (1.6 -> 0.5,
/// 4.1 -> 3.2 and 12.8 -> 4.5 s there); small kernels do not notice.
/// The row addresses' chain is SLSR's GEP stride-delta rewrite
/// (`&Y[sext(x + N)]` as `&Y[sext x] + 4 * sext N`), which LLVM 22 makes
/// wherever the reuse check passes: it equals the i32 arithmetic's address
/// wherever that does not wrap.
/// 64-bit ors stay: there an or of a small constant is one instruction on
/// the low word, an add two (with the carry), and ISel only turns an add
/// back into an or where known bits prove it.
unsafe fn disjoint_ors_to_adds(module: LLVMModuleRef) {
    use llvm_sys::{LLVMOpcode::LLVMOr, LLVMTypeKind::LLVMIntegerTypeKind};
    unsafe {
        let context = LLVMGetModuleContext(module);
        let builder = LLVMCreateBuilderInContext(context);
        for_each_instruction(module, |instruction| {
            let ty = LLVMTypeOf(instruction);
            if LLVMGetInstructionOpcode(instruction) == LLVMOr
                && LLVMGetIsDisjoint(instruction) != 0
                && LLVMGetTypeKind(ty) == LLVMIntegerTypeKind
                && LLVMGetIntTypeWidth(ty) <= 32
            {
                LLVMPositionBuilderBefore(builder, instruction);
                let add =
                    LLVMBuildAdd(builder, LLVMGetOperand(instruction, 0), LLVMGetOperand(instruction, 1), c"".as_ptr());
                // Two constants fold to a constant: no flags to set.
                if !LLVMIsAInstruction(add).is_null() {
                    LLVMSetNUW(add, 1);
                    LLVMSetNSW(add, 1);
                    let location = llvm_sys::debuginfo::LLVMInstructionGetDebugLoc(instruction);
                    if !location.is_null() {
                        llvm_sys::debuginfo::LLVMInstructionSetDebugLoc(add, location);
                    }
                }
                LLVMReplaceAllUsesWith(instruction, add);
                LLVMInstructionEraseFromParent(instruction);
            }
        });
        LLVMDisposeBuilder(builder);
    }
}

/// Marks every floating-point add, subtract and multiply of `module` as
/// contractable. Upstream's `enable_fp_fusion` sets the code generator's
/// `AllowFPOpFusion = Fast`, which lets the NVPTX backend fuse any multiply
/// and add into fma, including those of the linked libdevice functions and of
/// the lowering's own arithmetic; the LLVM C API cannot set that option, and
/// per-instruction `contract` flags are its equivalent. Done after the IR
/// optimisation, where only instruction selection reads them.
unsafe fn allow_fp_contraction_everywhere(module: LLVMModuleRef) {
    use llvm_sys::LLVMOpcode::{LLVMFAdd, LLVMFMul, LLVMFSub};
    unsafe {
        for_each_instruction(module, |instruction| {
            if matches!(LLVMGetInstructionOpcode(instruction), LLVMFAdd | LLVMFSub | LLVMFMul)
                && LLVMCanValueUseFastMathFlags(instruction) != 0
            {
                let flags = LLVMGetFastMathFlags(instruction);
                LLVMSetFastMathFlags(instruction, flags | llvm_sys::LLVMFastMathAllowContract);
            }
        });
    }
}

/// Calls `visit` on every instruction of every function of `module`, in
/// order; `visit` may erase the instruction it is given (the next one is
/// taken first).
unsafe fn for_each_instruction(module: LLVMModuleRef, mut visit: impl FnMut(LLVMValueRef)) {
    unsafe {
        let mut function = LLVMGetFirstFunction(module);
        while !function.is_null() {
            let mut block = LLVMGetFirstBasicBlock(function);
            while !block.is_null() {
                let mut instruction = LLVMGetFirstInstruction(block);
                while !instruction.is_null() {
                    let next = LLVMGetNextInstruction(instruction);
                    visit(instruction);
                    instruction = next;
                }
                block = LLVMGetNextBasicBlock(block);
            }
            function = LLVMGetNextFunction(function);
        }
    }
}

/// Runs LLVM's O3 pipeline on `module` as upstream Triton's
/// `optimize_module` does for NVIDIA: without a target machine, so with
/// LLVM's generic cost model rather than NVPTX's, and with loop and SLP
/// vectorisation on. The generic model matters to the registers of the
/// result: it lets the SLP vectoriser gather a tile's per-element index
/// arithmetic and compares into vectors, whose minimal-bit-width analysis
/// then does in 32 bits what the TTGIR writes in 64 (block pointers'
/// `sext` offsets and bound checks, for instance); NVPTX's model (no vector
/// registers) leaves them as scalar i64 adds and compares, and ptxas keeps
/// them in register pairs. The target machine still sets the data layout
/// and emits the PTX.
unsafe fn optimize_o3(module: LLVMModuleRef) -> llvm_sys::error::LLVMErrorRef {
    unsafe {
        let options = LLVMCreatePassBuilderOptions();
        LLVMPassBuilderOptionsSetLoopUnrolling(options, 1);
        LLVMPassBuilderOptionsSetLoopInterleaving(options, 1);
        LLVMPassBuilderOptionsSetLoopVectorization(options, 1);
        LLVMPassBuilderOptionsSetSLPVectorization(options, 1);
        let pipeline = c"default<O3>";
        let error = LLVMRunPasses(module, pipeline.as_ptr(), ptr::null_mut(), options);
        LLVMDisposePassBuilderOptions(options);
        error
    }
}

/// Translates `module` (LLVM and NVVM dialects only) to LLVM IR, links the
/// libdevice functions it calls, optimises at O3 and emits PTX for `target`.
pub fn module_to_ptx(
    module: &Module,
    target: &Target,
    libdevice: Option<&Path>,
    keep_llvm_ir: bool,
    codegen: &crate::bundle::CodegenOptions,
) -> Result<Assembly, String> {
    init_nvptx();
    unsafe {
        let context = LLVMContextCreate();
        let mut gate = ptr::null_mut();
        let result = translate_and_emit(module, target, libdevice, keep_llvm_ir, codegen, context, &mut gate);
        LLVMContextDispose(context);
        if !gate.is_null() {
            tritiumLLVMPassGateDestroy(gate);
        }
        result
    }
}

unsafe fn translate_and_emit(
    module: &Module,
    target: &Target,
    libdevice: Option<&Path>,
    keep_llvm_ir: bool,
    codegen: &crate::bundle::CodegenOptions,
    context: LLVMContextRef,
    gate: &mut *mut std::ffi::c_void,
) -> Result<Assembly, String> {
    let mut timings = Vec::new();
    let mut clock = std::time::Instant::now();
    let mut lap = |name: &'static str| {
        timings.push((name, clock.elapsed()));
        clock = std::time::Instant::now();
    };
    // Types LLVM has no counterpart for crash the translation (a segfault in
    // IRBuilder::CreateGEP), so they are found first and reported at their op.
    crate::llvm_check::check_translatable(module).map_err(|e| {
        e.emit();
        format!("the LLVM-dialect module cannot be translated: {}: {}", e.location, e.message)
    })?;
    lap("check of the LLVM-dialect module");
    // SAFETY: `context` is the live LLVM context this compile owns.
    let llvm_module = unsafe { tritium_dialects::ir::translate_to_llvm_ir(module, context as *mut _) } as LLVMModuleRef;
    if llvm_module.is_null() {
        return Err("translation to LLVM IR failed".into());
    }
    let triple = CString::new("nvptx64-nvidia-cuda").unwrap();
    unsafe { LLVMSetTarget(llvm_module, triple.as_ptr()) };
    if codegen.reflect_ftz {
        // libdevice's __nvvm_reflect("__CUDA_FTZ") reads this: its f32 paths
        // flush denormals, as upstream sets it (enable_reflect_ftz).
        unsafe { set_module_flag_i32(context, llvm_module, "nvvm-reflect-ftz", 1) };
    }
    lap("translate to LLVM IR");

    if calls_libdevice(llvm_module) {
        // Unresolved __nv_ calls would only fail later, in ptxas.
        let path = libdevice.ok_or("the kernel calls libdevice functions: give --libdevice PATH (or set LIBDEVICE)")?;
        unsafe { link_bitcode(context, llvm_module, path)? };
        lap("link libdevice");
    }

    let cpu = CString::new(target.cpu()).unwrap();
    let features = CString::new(target.features()).unwrap();
    let mut llvm_target: LLVMTargetRef = ptr::null_mut();
    let mut message = ptr::null_mut();
    if unsafe { LLVMGetTargetFromTriple(triple.as_ptr(), &mut llvm_target, &mut message) } != 0 {
        return Err(format!("NVPTX target: {}", unsafe { take_message(message) }));
    }
    let machine = unsafe {
        LLVMCreateTargetMachine(
            llvm_target,
            triple.as_ptr(),
            cpu.as_ptr(),
            features.as_ptr(),
            LLVMCodeGenOptLevel::LLVMCodeGenLevelAggressive,
            LLVMRelocMode::LLVMRelocDefault,
            LLVMCodeModel::LLVMCodeModelDefault,
        )
    };
    let layout = unsafe { LLVMCreateTargetDataLayout(machine) };
    unsafe { LLVMSetModuleDataLayout(llvm_module, layout) };
    unsafe { LLVMDisposeTargetData(layout) };

    let error = unsafe { optimize_o3(llvm_module) };
    if !error.is_null() {
        let text = unsafe { take_message(llvm_sys::error::LLVMGetErrorMessage(error)) };
        unsafe { LLVMDisposeTargetMachine(machine) };
        return Err(format!("LLVM optimisation failed: {text}"));
    }
    lap("LLVM O3");
    if codegen.fp_fusion {
        unsafe { allow_fp_contraction_everywhere(llvm_module) };
    }
    unsafe { disjoint_ors_to_adds(llvm_module) };
    let llvm_ir = keep_llvm_ir.then(|| {
        let text = unsafe { take_message(LLVMPrintModuleToString(llvm_module)) };
        lap("print LLVM IR");
        text
    });

    if unsafe { largest_block_candidates(llvm_module) } > SLSR_CANDIDATE_LIMIT {
        *gate = unsafe { tritiumLLVMContextSkipPasses(context as *mut _, c"slsr".as_ptr()) };
    }
    let mut buffer: LLVMMemoryBufferRef = ptr::null_mut();
    let failed = unsafe {
        LLVMTargetMachineEmitToMemoryBuffer(
            machine,
            llvm_module,
            LLVMCodeGenFileType::LLVMAssemblyFile,
            &mut message,
            &mut buffer,
        )
    };
    unsafe { LLVMDisposeTargetMachine(machine) };
    unsafe { LLVMDisposeModule(llvm_module) };
    if failed != 0 {
        return Err(format!("PTX emission failed: {}", unsafe { take_message(message) }));
    }
    let start = unsafe { LLVMGetBufferStart(buffer) } as *const u8;
    let size = unsafe { LLVMGetBufferSize(buffer) };
    let ptx =
        String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(start, size) }).trim_end_matches('\0').to_string();
    unsafe { LLVMDisposeMemoryBuffer(buffer) };
    // With source variables asked for, `debug` stays (as upstream's make_ptx
    // keeps it): ptxas then keeps the variables for cuda-gdb.
    let ptx = if codegen.debug_variables { ptx } else { without_debug_target(ptx) };
    let ptx = crate::ptx_branches::fold_branches_over_next_label(&ptx);
    lap("NVPTX code generation");
    Ok(Assembly { llvm_ir, ptx, timings })
}

/// The PTX with `debug` taken out of its `.target` line. NVPTX writes
/// `.target sm_90a, debug` for a module with debug info (the line tables of
/// `enable-line-info`), and ptxas then compiles as with `-g`: without
/// optimisation. Upstream's make_ptx takes it out for the same reason; the
/// line tables stay, and ptxas `-lineinfo` reads them.
fn without_debug_target(ptx: String) -> String {
    let Some(start) = ptx.find("\n.target ") else {
        return ptx;
    };
    let end = ptx[start + 1..].find('\n').map_or(ptx.len(), |n| start + 1 + n);
    let line = &ptx[start + 1..end];
    let kept: Vec<&str> =
        line["target ".len() + 1..].split(',').map(str::trim).filter(|part| *part != "debug").collect();
    format!("{}\n.target {}{}", &ptx[..start], kept.join(", "), &ptx[end..])
}

/// A module flag `name` = `value` (i32) with the Override behaviour.
unsafe fn set_module_flag_i32(context: LLVMContextRef, module: LLVMModuleRef, name: &str, value: u64) {
    let i32 = unsafe { llvm_sys::core::LLVMInt32TypeInContext(context) };
    let constant = unsafe { llvm_sys::core::LLVMConstInt(i32, value, 0) };
    let metadata = unsafe { llvm_sys::core::LLVMValueAsMetadata(constant) };
    unsafe {
        llvm_sys::core::LLVMAddModuleFlag(
            module,
            llvm_sys::LLVMModuleFlagBehavior::LLVMModuleFlagBehaviorOverride,
            name.as_ptr().cast(),
            name.len(),
            metadata,
        )
    };
}

/// Whether the module declares a libdevice function (`__nv_*`).
fn calls_libdevice(module: LLVMModuleRef) -> bool {
    unsafe {
        let mut function = LLVMGetFirstFunction(module);
        while !function.is_null() {
            let mut length = 0;
            let name = LLVMGetValueName2(function, &mut length);
            let name = std::slice::from_raw_parts(name as *const u8, length);
            if name.starts_with(b"__nv_") && LLVMIsDeclaration(function) != 0 {
                return true;
            }
            function = LLVMGetNextFunction(function);
        }
    }
    false
}

unsafe fn link_bitcode(context: LLVMContextRef, module: LLVMModuleRef, path: &Path) -> Result<(), String> {
    let path_c = CString::new(path.to_string_lossy().as_bytes()).unwrap();
    let mut buffer = ptr::null_mut();
    let mut message = ptr::null_mut();
    if unsafe { LLVMCreateMemoryBufferWithContentsOfFile(path_c.as_ptr(), &mut buffer, &mut message) } != 0 {
        return Err(format!("cannot read libdevice at {}: {}", path.display(), unsafe { take_message(message) }));
    }
    // Read lazily (the module owns the buffer from here on): the linker
    // materializes only the function bodies it links.
    let mut library = ptr::null_mut();
    if unsafe { LLVMGetBitcodeModuleInContext2(context, buffer, &mut library) } != 0 {
        return Err(format!("{} is not LLVM bitcode", path.display()));
    }
    let triple = CString::new("nvptx64-nvidia-cuda").unwrap();
    unsafe { LLVMSetTarget(library, triple.as_ptr()) };
    // Keep only what the kernel calls (upstream's LinkOnlyNeeded); the
    // linked libdevice functions become internal.
    if unsafe { tritiumLinkModulesOnlyNeeded(module, library) } != 0 {
        return Err("linking libdevice failed".into());
    }
    unsafe {
        let mut function = LLVMGetFirstFunction(module);
        while !function.is_null() {
            let mut length = 0;
            let name = LLVMGetValueName2(function, &mut length);
            let name = std::slice::from_raw_parts(name as *const u8, length);
            if name.starts_with(b"__nv_") && LLVMIsDeclaration(function) == 0 {
                LLVMSetLinkage(function, llvm_sys::LLVMLinkage::LLVMInternalLinkage);
            }
            function = LLVMGetNextFunction(function);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::without_debug_target;

    #[test]
    fn debug_leaves_the_target_line_only() {
        let ptx = "//\n.version 8.7\n.target sm_90a, debug\n.address_size 64\n\t.loc\t1 2 3\n";
        assert_eq!(
            without_debug_target(ptx.into()),
            "//\n.version 8.7\n.target sm_90a\n.address_size 64\n\t.loc\t1 2 3\n"
        );
        let plain = "//\n.target sm_80\n.address_size 64\n";
        assert_eq!(without_debug_target(plain.into()), plain);
        let both = "//\n.target sm_80, texmode_independent, debug\n";
        assert_eq!(without_debug_target(both.into()), "//\n.target sm_80, texmode_independent\n");
    }
}
