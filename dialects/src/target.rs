//! The GPU a module is compiled for, and the launch geometry its TTGIR
//! carries: the one place that reads Triton's target string (`cuda:90`) and
//! the module attributes `ttg.target`, `ttg.num-warps`,
//! `ttg.threads-per-warp` and `ttg.num-ctas`, so that passes and the
//! lowering agree on defaults and on the PTX version.
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
    module.attribute("ttg.target").ok().and_then(string_attribute_value).and_then(|text| parse_capability(&text))
}

/// The launch geometry a TTGIR module carries, with upstream's defaults for
/// absent attributes (threads per warp 32, one CTA).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModuleGeometry {
    /// `ttg.num-warps`; None on a TTIR module.
    pub num_warps: Option<u32>,
    pub threads_per_warp: u32,
    pub num_ctas: u32,
}

impl ModuleGeometry {
    pub fn of(module: &OperationRef) -> ModuleGeometry {
        let int =
            |name: &str| module.attribute(name).ok().and_then(|a| integer_attribute(a).ok()).map(|i| i.value() as u32);
        ModuleGeometry {
            num_warps: int("ttg.num-warps"),
            threads_per_warp: int("ttg.threads-per-warp").unwrap_or(THREADS_PER_WARP),
            num_ctas: int("ttg.num-ctas").unwrap_or(1),
        }
    }
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
}
