//! A peephole on the PTX text NVPTX emits: a conditional branch to the very
//! next label followed by an unconditional branch,
//!
//! ```text
//!     @%p5 bra    $L__BB0_5;
//!     bra.uni     $L__BB0_4;
//! $L__BB0_5:
//! ```
//!
//! becomes the one branch on the negated predicate, `@!%p5 bra $L__BB0_4;`,
//! falling through to `$L__BB0_5` as before. LLVM's NVPTX backend leaves the
//! pair where block placement puts a loop's exit right after its latch. The
//! two forms mean the same, but ptxas reads the pair (an unconditional back
//! edge) as a loop it may unroll by two: lora_shrink_sgmv (split-K, sm_90)
//! took 128 registers that way and 56 with the single conditional back edge
//! (the shape upstream's PTX happens to have, its latch not being followed
//! by the exit).

/// `ptx` with every such branch pair folded.
pub fn fold_branches_over_next_label(ptx: &str) -> String {
    let lines: Vec<&str> = ptx.lines().collect();
    let mut out = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        if let Some(folded) = lines.get(i..i + 3).and_then(|window| fold(window[0], window[1], window[2])) {
            out.push(folded);
            i += 2;
            continue;
        }
        out.push(lines[i].to_string());
        i += 1;
    }
    let mut text = out.join("\n");
    if ptx.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// The folded branch of `conditional`, `unconditional`, `label` lines, if
/// they have the shape: `@%pN bra L;`, `bra.uni M;`, `L:` (the label may
/// carry a comment).
fn fold(conditional: &str, unconditional: &str, label: &str) -> Option<String> {
    let (indent, rest) = conditional.split_at(conditional.len() - conditional.trim_start().len());
    let rest = rest.strip_prefix("@%p")?;
    let (predicate, rest) = rest.split_once(char::is_whitespace)?;
    if predicate.is_empty() || !predicate.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let taken = branch_target(rest, "bra")?;
    let other = branch_target(unconditional.trim_start(), "bra.uni")?;
    let next = label.split("//").next()?.trim().strip_suffix(':')?;
    (taken == next && other != next).then(|| format!("{indent}@!%p{predicate} bra \t{other};"))
}

/// `L` of `opcode L;` (whitespace between them free).
fn branch_target<'a>(instruction: &'a str, opcode: &str) -> Option<&'a str> {
    let rest = instruction.trim_start().strip_prefix(opcode)?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let target = rest.trim().strip_suffix(';')?.trim();
    (!target.is_empty() && !target.contains(char::is_whitespace)).then_some(target)
}

#[cfg(test)]
mod tests {
    use super::fold_branches_over_next_label;

    #[test]
    fn a_branch_over_the_next_label_becomes_one_negated_branch() {
        let ptx =
            "\tsetp.eq.b32 \t%p5, %r266, 0;\n\t@%p5 bra \t$L__BB0_5;\n\tbra.uni \t$L__BB0_4;\n$L__BB0_5:\n\tret;\n";
        assert_eq!(
            fold_branches_over_next_label(ptx),
            "\tsetp.eq.b32 \t%p5, %r266, 0;\n\t@!%p5 bra \t$L__BB0_4;\n$L__BB0_5:\n\tret;\n"
        );
        // A label with a comment (LLVM's block names) still counts.
        let commented = "\t@%p1 bra \t$L__BB0_2;\n\tbra.uni \t$L__BB0_1;\n$L__BB0_2:    // %.lr.ph\n";
        assert_eq!(fold_branches_over_next_label(commented), "\t@!%p1 bra \t$L__BB0_1;\n$L__BB0_2:    // %.lr.ph\n");
    }

    #[test]
    fn other_branches_stay() {
        for ptx in [
            // The conditional branch does not go to the next label.
            "\t@%p5 bra \t$L__BB0_6;\n\tbra.uni \t$L__BB0_4;\n$L__BB0_5:\n",
            // Something between the branches and the label.
            "\t@%p5 bra \t$L__BB0_5;\n\tbra.uni \t$L__BB0_4;\n\tret;\n$L__BB0_5:\n",
            // Already negated, or not a predicate register.
            "\t@!%p5 bra \t$L__BB0_5;\n\tbra.uni \t$L__BB0_4;\n$L__BB0_5:\n",
            // Both branches to the next label.
            "\t@%p5 bra \t$L__BB0_5;\n\tbra.uni \t$L__BB0_5;\n$L__BB0_5:\n",
            "\tbra.uni \t$L__BB0_4;\n$L__BB0_5:\n",
        ] {
            assert_eq!(fold_branches_over_next_label(ptx), ptx);
        }
    }
}
