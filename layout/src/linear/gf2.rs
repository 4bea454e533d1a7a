//! Dense GF(2) matrices with at most 128 columns, one `u128` per row.
//!
//! Column `c` is bit `c` of each row.  Upstream uses the f2reduce library on
//! `uint64_t` rows; the reduced row echelon form is unique, so any correct
//! elimination gives the same pivots and therefore the same solutions.  The
//! extra width lets `lstsq` place two 64-column layouts side by side.

/// A GF(2) matrix stored row-wise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gf2Matrix {
    rows: Vec<u128>,
    num_cols: u32,
}

impl Gf2Matrix {
    pub fn new(rows: Vec<u128>, num_cols: u32) -> Gf2Matrix {
        debug_assert!(num_cols <= 128);
        Gf2Matrix { rows, num_cols }
    }

    pub fn rows(&self) -> &[u128] {
        &self.rows
    }

    pub fn num_rows(&self) -> usize {
        self.rows.len()
    }

    pub fn num_cols(&self) -> u32 {
        self.num_cols
    }

    /// Brings the matrix into reduced row echelon form, where the pivot of a
    /// row is its lowest set bit.  Returns, for every row, its pivot column
    /// (`None` for the zero rows, which end up last).
    pub fn reduce(&mut self) -> Vec<Option<u32>> {
        let mut pivots = Vec::with_capacity(self.rows.len());
        let mut next_row = 0usize;
        for col in 0..self.num_cols {
            let bit = 1u128 << col;
            let Some(found) = (next_row..self.rows.len()).find(|&r| self.rows[r] & bit != 0) else {
                continue;
            };
            self.rows.swap(next_row, found);
            let pivot_row = self.rows[next_row];
            for (r, row) in self.rows.iter_mut().enumerate() {
                if r != next_row && *row & bit != 0 {
                    *row ^= pivot_row;
                }
            }
            pivots.push(Some(col));
            next_row += 1;
        }
        pivots.resize(self.rows.len(), None);
        pivots
    }

    /// Number of linearly independent rows (equivalently columns).
    pub fn rank(&self) -> u32 {
        let mut copy = self.clone();
        copy.reduce().iter().filter(|p| p.is_some()).count() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduce_finds_lowest_bit_pivots() {
        // Rows (bit 0 = first column): 0b110, 0b011, 0b101 -> rank 2.
        let mut m = Gf2Matrix::new(vec![0b110, 0b011, 0b101], 3);
        let pivots = m.reduce();
        assert_eq!(pivots, vec![Some(0), Some(1), None]);
        assert_eq!(m.rows(), &[0b101, 0b110, 0]);
        assert_eq!(Gf2Matrix::new(vec![0b110, 0b011, 0b101], 3).rank(), 2);
    }

    #[test]
    fn rank_of_identity() {
        let m = Gf2Matrix::new((0..10).map(|i| 1u128 << i).collect(), 10);
        assert_eq!(m.rank(), 10);
    }
}
