//! The GPU a kernel is compiled for.

/// The compute capabilities Tritium compiles for (Ampere, Ada, Hopper).
const SUPPORTED: [u32; 5] = [80, 86, 87, 89, 90];

/// An NVIDIA compute capability (80 = A100, 90 = H100).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    pub capability: u32,
}

impl Target {
    /// Parses Triton's target string, `cuda:90`.
    pub fn parse(text: &str) -> Result<Target, String> {
        let capability = text
            .strip_prefix("cuda:")
            .and_then(|c| c.parse().ok())
            .ok_or_else(|| format!("unknown target '{text}' (expected cuda:80, cuda:90, ...)"))?;
        if capability < 80 {
            return Err(format!("target '{text}' is older than sm_80, which Tritium does not support"));
        }
        // Blackwell (sm_100, sm_120) needs tcgen05/TMEM, which Tritium lacks;
        // other numbers are no NVIDIA GPU that LLVM's NVPTX backend knows.
        if capability > 90 {
            return Err(format!("target '{text}' is newer than sm_90, which Tritium does not support yet"));
        }
        if !SUPPORTED.contains(&capability) {
            return Err(format!("target '{text}' is no known GPU (supported: cuda:80, cuda:86, cuda:87, cuda:89, cuda:90)"));
        }
        Ok(Target { capability })
    }

    /// `sm_90a` for Hopper (wgmma and setmaxnreg need the `a` features), else `sm_NN`.
    pub fn cpu(&self) -> String {
        if self.capability == 90 {
            "sm_90a".into()
        } else {
            format!("sm_{}", self.capability)
        }
    }

    /// PTX ISA 8.7, what upstream Triton 3.6 emits (CUDA 12.8's ptxas).
    pub fn features(&self) -> String {
        "+ptx87".into()
    }

    pub fn name(&self) -> String {
        format!("cuda:{}", self.capability)
    }
}
