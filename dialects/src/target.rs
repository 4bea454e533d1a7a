//! The GPU a module is compiled for, and the launch configuration its TTGIR
//! carries: the one place that reads Triton's target string (`cuda:90`) and
//! the module attributes `ttg.target`, `ttg.num-warps`,
//! `ttg.threads-per-warp`, `ttg.num-ctas` and `ttg.total-num-warps`
//! ([`ModuleConfig`], [`required_capability`],
//! [`lookup_num_warps`]), so that passes and the lowering agree on defaults,
//! on what a bad value is, and on the PTX version.
use crate::access::{integer_attribute, string_attribute_value};
use melior::ir::{operation::OperationLike, OperationRef};

/// The PTX ISA version Tritium emits: 8.7, what upstream Triton 3.6 emits
/// (CUDA 12.8's ptxas).
pub const PTX_VERSION: u32 = 87;
/// [`PTX_VERSION`] as pass options spell their defaults.
pub const PTX_VERSION_TEXT: &str = "87";

/// Threads in a warp on every NVIDIA GPU.
pub const THREADS_PER_WARP: u32 = 32;

/// The compute capabilities Tritium compiles for (Ampere, Ada, Hopper).
const SUPPORTED: [u32; 5] = [80, 86, 87, 89, 90];

/// The compute capability of a Triton target string (`cuda:90` -> 90),
/// whatever GPU it names; None when it is no `cuda:<number>`.
pub fn parse_capability(text: &str) -> Option<u32> {
    text.strip_prefix("cuda:").and_then(|c| c.parse().ok())
}

/// Triton's target string of a compute capability (90 -> `cuda:90`).
pub fn target_name(capability: u32) -> String {
    format!("cuda:{capability}")
}

/// The most shared memory one CTA can have on a GPU of compute capability
/// `capability`, in bytes: CUDA's opt-in maximum of dynamic shared memory per
/// block (`cudaDevAttrMaxSharedMemoryPerBlockOptin`), which upstream Triton
/// reads from the device at launch (and fails with OutOfResources over it):
/// 227 KiB on sm_90, 163 KiB on sm_80/sm_87, 99 KiB on sm_86/sm_89.
pub fn max_shared_bytes(capability: u32) -> usize {
    match capability {
        90 => 232_448,
        80 | 87 => 166_912,
        86 | 89 => 101_376,
        // Not a target Tritium compiles for; CUDA's static limit.
        _ => 49_152,
    }
}

/// An NVIDIA GPU Tritium compiles for (capability 80 = A100, 90 = H100).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub capability: u32,
}

impl Target {
    /// Parses Triton's target string, `cuda:90`, refusing GPUs Tritium does
    /// not compile for.
    pub fn parse(text: &str) -> Result<Target, String> {
        let capability = parse_capability(text)
            .ok_or_else(|| format!("unknown target '{text}' (expected cuda:80, cuda:90, ...)"))?;
        Target::from_capability(capability)
    }

    /// The target of a compute capability, refusing GPUs Tritium does not
    /// compile for.
    pub fn from_capability(capability: u32) -> Result<Target, String> {
        let text = target_name(capability);
        if capability < 80 {
            return Err(format!("target '{text}' is older than sm_80, which Tritium does not support"));
        }
        // Blackwell (sm_100, sm_120) needs tcgen05/TMEM, which Tritium lacks;
        // other numbers are no NVIDIA GPU that LLVM's NVPTX backend knows.
        if capability > 90 {
            return Err(format!("target '{text}' is newer than sm_90, which Tritium does not support yet"));
        }
        if !SUPPORTED.contains(&capability) {
            return Err(format!(
                "target '{text}' is no known GPU (supported: cuda:80, cuda:86, cuda:87, cuda:89, cuda:90)"
            ));
        }
        Ok(Target { capability })
    }

    /// The module's `ttg.target`, checked: None when it has none.
    pub fn of_module(module: &OperationRef) -> Option<Result<Target, String>> {
        let attribute = module.attribute("ttg.target").ok()?;
        Some(match string_attribute_value(attribute) {
            Some(text) => Target::parse(&text),
            None => Err(format!("unknown target '{attribute}' (expected cuda:80, cuda:90, ...)")),
        })
    }

    /// CTAs of `threads` threads and `shared_bytes` bytes of shared memory
    /// one SM holds at once by those two resources (registers, which only
    /// ptxas knows, may allow fewer): the SM's shared memory, of which CUDA
    /// reserves 1 KiB per CTA (so the SM has a CTA's [`max_shared_bytes`]
    /// plus that 1 KiB: 228 KiB on sm_90, 164 KiB on sm_80/sm_87, 100 KiB on
    /// sm_86/sm_89), its 2,048 threads and 32 CTAs (CUDA's occupancy rules).
    pub fn resident_ctas(&self, shared_bytes: usize, threads: u32) -> u32 {
        const RESERVED_PER_CTA: usize = 1024;
        let per_sm = max_shared_bytes(self.capability) + RESERVED_PER_CTA;
        let by_shared = per_sm / (shared_bytes + RESERVED_PER_CTA);
        let by_threads = 2048 / threads.max(1) as usize;
        by_shared.min(by_threads).min(32) as u32
    }

    /// `sm_90a` for Hopper (wgmma and setmaxnreg need the `a` features), else `sm_NN`.
    pub fn cpu(&self) -> String {
        if self.capability == 90 {
            "sm_90a".into()
        } else {
            format!("sm_{}", self.capability)
        }
    }

    /// The PTX ISA version emitted for this GPU ([`PTX_VERSION`] on all).
    pub fn ptx_version(&self) -> u32 {
        PTX_VERSION
    }

    /// LLVM's NVPTX features: the PTX ISA version.
    pub fn features(&self) -> String {
        format!("+ptx{}", self.ptx_version())
    }

    pub fn name(&self) -> String {
        target_name(self.capability)
    }
}

/// The compute capability of a module's `ttg.target` (unchecked: passes run
/// on upstream's tests for GPUs Tritium does not lower for); None when it
/// has no `cuda:<number>` target.
pub fn module_capability(module: &OperationRef) -> Option<u32> {
    required_capability(module).ok()
}

/// The compute capability of a module's `ttg.target`, which it must have
/// and which must name an NVIDIA GPU (upstream's
/// `getNVIDIAComputeCapability`); unchecked otherwise, as
/// [`module_capability`].
pub fn required_capability(module: &OperationRef) -> Result<u32, ConfigError> {
    let Some(text) = module.attribute("ttg.target").ok().and_then(string_attribute_value) else {
        return Err(ConfigError("the module must specify its target (ttg.target = \"cuda:<capability>\")".into()));
    };
    parse_capability(&text)
        .ok_or_else(|| ConfigError(format!("expected an NVIDIA target \"cuda:<capability>\", got \"{text}\"")))
}

/// What a module says about the GPU and the launch, read once and checked:
/// upstream's `TritonGPUDialect::getNumWarps`/`getThreadsPerWarp`/
/// `getNumCTAs` and the module's `ttg.target`, with upstream's defaults for
/// absent attributes (32 threads per warp, one CTA). Passes and the lowering
/// read these attributes through it only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModuleConfig {
    /// The compute capability of `ttg.target` (`cuda:90` -> 90), unchecked:
    /// passes also run on upstream's tests for GPUs Tritium does not lower
    /// for ([`ModuleConfig::target`] checks it). None without a
    /// `cuda:<number>` target.
    pub capability: Option<u32>,
    /// `ttg.num-warps`; None on a TTIR module ([`ModuleConfig::num_warps`]
    /// asks for it).
    pub num_warps: Option<u32>,
    /// `ttg.threads-per-warp`.
    pub threads_per_warp: u32,
    /// `ttg.num-ctas`.
    pub num_ctas: u32,
    /// `ttg.total-num-warps`: the warps a warp-specialized kernel is
    /// launched with, its partitions' included (set by
    /// `tritongpu-allocate-warp-groups`); None before that pass.
    pub total_num_warps: Option<u32>,
}

/// Why a module's configuration cannot be read: the message names the
/// attribute; callers report it at the module's location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The positive 32-bit integer attribute `name` of `op`; None when absent.
fn count_attribute(op: &OperationRef, name: &str) -> Result<Option<u32>, ConfigError> {
    let Ok(attribute) = op.attribute(name) else { return Ok(None) };
    let value = integer_attribute(attribute)
        .map_err(|_| ConfigError(format!("'{name}' must be an integer attribute, got {attribute}")))?
        .value();
    match u32::try_from(value) {
        Ok(count) if count > 0 => Ok(Some(count)),
        _ => Err(ConfigError(format!("'{name}' must be a positive number, got {value}"))),
    }
}

impl ModuleConfig {
    /// Reads `module`'s attributes (an absent one takes upstream's default;
    /// one that is no positive integer is an error).
    pub fn of(module: &OperationRef) -> Result<ModuleConfig, ConfigError> {
        Ok(ModuleConfig {
            capability: module_capability(module),
            num_warps: count_attribute(module, "ttg.num-warps")?,
            threads_per_warp: count_attribute(module, "ttg.threads-per-warp")?.unwrap_or(THREADS_PER_WARP),
            num_ctas: count_attribute(module, "ttg.num-ctas")?.unwrap_or(1),
            total_num_warps: count_attribute(module, "ttg.total-num-warps")?,
        })
    }

    /// The configuration of the `builtin.module` that holds `op` (or is
    /// `op`); the defaults when there is none (an op being built).
    pub fn of_enclosing(op: &OperationRef) -> Result<ModuleConfig, ConfigError> {
        let mut current = Some(*op);
        while let Some(candidate) = current {
            if candidate.name().as_string_ref().as_str() == Ok("builtin.module") {
                return ModuleConfig::of(&candidate);
            }
            current = candidate.parent_operation();
        }
        Ok(ModuleConfig {
            capability: None,
            num_warps: None,
            threads_per_warp: THREADS_PER_WARP,
            num_ctas: 1,
            total_num_warps: None,
        })
    }

    /// `ttg.num-warps`, which a TTGIR module must have (upstream's
    /// `getNumWarps`).
    pub fn num_warps(&self) -> Result<u32, ConfigError> {
        self.num_warps.ok_or_else(|| ConfigError("the module must specify its number of warps (ttg.num-warps)".into()))
    }

    /// The checked target; None without `ttg.target`.
    pub fn target(&self) -> Option<Result<Target, String>> {
        self.capability.map(Target::from_capability)
    }
}

/// The warps of the code `op` is in (upstream's `maybeLookupNumWarps`): the
/// `ttg.num-warps` of its closest enclosing function or module, or the warps
/// of the `ttg.warp_specialize` partition it is in; None when there is none.
pub fn lookup_num_warps(op: &OperationRef) -> Result<Option<u32>, ConfigError> {
    let name = |op: &OperationRef| op.name().as_string_ref().as_str().map(str::to_string).unwrap_or_default();
    let mut current = *op;
    loop {
        if matches!(name(&current).as_str(), "builtin.module" | "tt.func") {
            if let Some(warps) = count_attribute(&current, "ttg.num-warps")? {
                return Ok(Some(warps));
            }
        }
        let Some(parent) = current.parent_operation() else { return Ok(None) };
        if name(&parent) == "ttg.warp_specialize.partitions" {
            return Ok(partition_warps(&parent, &current));
        }
        current = parent;
    }
}

/// The `partitionNumWarps` entry of the partition of `partitions` (a
/// `ttg.warp_specialize.partitions`) that holds `op`.
fn partition_warps(partitions: &OperationRef, op: &OperationRef) -> Option<u32> {
    use melior::ir::{attribute::DenseI32ArrayAttribute, BlockLike};
    let region = op.block()?.parent_region()?;
    let index = partitions.regions().position(|r| r == region)?;
    let counts = partitions.parent_operation()?.attribute("partitionNumWarps").ok()?;
    let counts = DenseI32ArrayAttribute::try_from(counts).ok()?;
    counts.element(index).ok().and_then(|warps| u32::try_from(warps).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_checks_targets() {
        assert_eq!(Target::parse("cuda:90"), Ok(Target { capability: 90 }));
        assert_eq!(Target::parse("cuda:90").unwrap().cpu(), "sm_90a");
        assert_eq!(Target::parse("cuda:80").unwrap().features(), "+ptx87");
        assert!(Target::parse("cuda:75").unwrap_err().contains("older than sm_80"));
        assert!(Target::parse("cuda:100").unwrap_err().contains("newer than sm_90"));
        assert!(Target::parse("cuda:85").unwrap_err().contains("no known GPU"));
        assert!(Target::parse("hip:gfx942").unwrap_err().starts_with("unknown target 'hip:gfx942'"));
        assert_eq!(parse_capability("cuda:100"), Some(100));
        assert_eq!(PTX_VERSION_TEXT.parse::<u32>(), Ok(PTX_VERSION));
    }

    #[test]
    fn counts_resident_ctas_by_shared_memory_threads_and_blocks() {
        let hopper = Target { capability: 90 };
        // tma_matmul: 96 KiB + 24 bytes of barriers, 256 threads: two CTAs.
        assert_eq!(hopper.resident_ctas(98_328, 256), 2);
        // CUDA's 1 KiB per CTA: 114 KiB each do not fit twice in 228 KiB.
        assert_eq!(hopper.resident_ctas(114 * 1024, 128), 1);
        // No shared memory: threads (2,048) and CTAs (32) decide.
        assert_eq!(hopper.resident_ctas(0, 128), 16);
        assert_eq!(hopper.resident_ctas(0, 32), 32);
        // sm_80's 164 KiB per SM: two CTAs of 80 KiB.
        assert_eq!(Target { capability: 80 }.resident_ctas(80 * 1024, 128), 2);
    }

    /// The configuration of a module with `attributes`, and the warps
    /// looked up from its function's first op.
    fn read(attributes: &str) -> (Result<ModuleConfig, ConfigError>, Result<Option<u32>, ConfigError>) {
        use melior::ir::{BlockLike, RegionLike};
        let context = crate::context::create_context();
        let source = format!(
            "module attributes {{{attributes}}} {{\n  tt.func @f() attributes {{\"ttg.num-warps\" = 2 : i32}} {{\n    tt.return\n  }}\n}}\n"
        );
        let module = crate::io::parse_module(&context, &source, "config.mlir").unwrap();
        let body = module.body();
        let function = body.first_operation().unwrap();
        let first = function.region(0).unwrap().first_block().unwrap().first_operation().unwrap();
        (ModuleConfig::of(&module.as_operation()), lookup_num_warps(&first))
    }

    #[test]
    fn reads_the_module_configuration() {
        let (config, warps) =
            read(r#""ttg.target" = "cuda:90", "ttg.num-warps" = 8 : i32, "ttg.threads-per-warp" = 32 : i32"#);
        let config = config.unwrap();
        assert_eq!(
            config,
            ModuleConfig {
                capability: Some(90),
                num_warps: Some(8),
                threads_per_warp: 32,
                num_ctas: 1,
                total_num_warps: None
            }
        );
        assert_eq!(config.num_warps(), Ok(8));
        assert_eq!(config.target(), Some(Ok(Target { capability: 90 })));
        // The function's own warps win, as upstream's lookupNumWarps.
        assert_eq!(warps, Ok(Some(2)));

        let (config, _) = read(r#""ttg.num-ctas" = 2 : i32"#);
        let config = config.unwrap();
        assert_eq!((config.capability, config.num_warps, config.num_ctas), (None, None, 2));
        assert!(config.num_warps().unwrap_err().0.contains("ttg.num-warps"));

        let (config, _) = read(r#""ttg.num-warps" = 0 : i32"#);
        assert_eq!(config.unwrap_err().0, "'ttg.num-warps' must be a positive number, got 0");
        let (config, _) = read(r#""ttg.threads-per-warp" = "32""#);
        assert!(config.unwrap_err().0.starts_with("'ttg.threads-per-warp' must be an integer attribute"));
    }
}
