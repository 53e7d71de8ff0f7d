//! The engines' `SortArray` (`core/sort_array.h`), ported step for step: with keys that have
//! no order or an inconsistent one, the order printed is whatever this algorithm leaves, and
//! the engine's text shows exactly that. Where the engine would read out of bounds, this
//! stops at the edge instead.
//!
//! With a consistent order it makes O(k log k) comparisons (introsort falls back to heap sort,
//! and the final insertion pass moves each item within its ≤ 16-item partition). With
//! comparisons that contradict themselves (Godot 3's array `<`) the engine's final pass may
//! walk items far, up to k²/2 comparisons for k keys; this port stops each walk after 16
//! places (see [`SortArray::capped_linear_insert`]), which changes nothing for a consistent
//! order and bounds the pass to 16 k comparisons for any order.

/// The engine's `SortArray` (introsort, median of three, heap sort fallback, final insertion
/// sort with a threshold of 16) over entry indices.
pub(crate) struct SortArray<'c, F: FnMut(usize, usize) -> bool> {
    pub(crate) less: &'c mut F,
}

impl<F: FnMut(usize, usize) -> bool> SortArray<'_, F> {
    const THRESHOLD: usize = 16;

    pub(crate) fn sort(&mut self, a: &mut [usize]) {
        let n = a.len();
        if n == 0 {
            return;
        }
        let depth = 2 * (usize::BITS - 1 - n.leading_zeros()) as usize;
        self.introsort(a, 0, n, depth);
        self.final_insertion_sort(a, 0, n);
    }

    fn median_of_3(&mut self, a: usize, b: usize, c: usize) -> usize {
        if (self.less)(a, b) {
            if (self.less)(b, c) {
                b
            } else if (self.less)(a, c) {
                c
            } else {
                a
            }
        } else if (self.less)(a, c) {
            a
        } else if (self.less)(b, c) {
            c
        } else {
            b
        }
    }

    fn introsort(&mut self, a: &mut [usize], first: usize, mut last: usize, mut max_depth: usize) {
        while last - first > Self::THRESHOLD {
            if max_depth == 0 {
                self.partial_sort(a, first, last, last);
                return;
            }
            max_depth -= 1;
            let pivot = self.median_of_3(a[first], a[first + (last - first) / 2], a[last - 1]);
            let cut = self.partitioner(a, first, last, pivot);
            self.introsort(a, cut, last, max_depth);
            last = cut;
        }
    }

    fn partitioner(
        &mut self,
        a: &mut [usize],
        mut first: usize,
        mut last: usize,
        pivot: usize,
    ) -> usize {
        let (lo, hi) = (first, last);
        loop {
            while (self.less)(a[first], pivot) {
                if first + 1 >= hi {
                    break; // engine: out of bounds (newer engines: "bad comparison")
                }
                first += 1;
            }
            last -= 1;
            while (self.less)(pivot, a[last]) {
                if last == lo {
                    break;
                }
                last -= 1;
            }
            if first >= last {
                return first;
            }
            a.swap(first, last);
            first += 1;
        }
    }

    fn unguarded_linear_insert(&mut self, a: &mut [usize], mut last: usize, value: usize) {
        while last > 0 && (self.less)(value, a[last - 1]) {
            a[last] = a[last - 1];
            last -= 1;
        }
        a[last] = value;
    }

    /// The final pass's `unguarded_linear_insert`, walking at most `THRESHOLD` places. After
    /// introsort every item is in a block of ≤ 16 whose items all order between the blocks
    /// around it, so with a consistent order no item moves farther and the result is the
    /// engine's. Only comparisons that contradict themselves walk farther in the engine (its
    /// cost there is quadratic, and in the all-true case it reads out of bounds); here they
    /// stop, a documented difference that keeps printing linear in the keys.
    fn capped_linear_insert(&mut self, a: &mut [usize], mut last: usize, value: usize) {
        let stop = last.saturating_sub(Self::THRESHOLD);
        while last > stop && (self.less)(value, a[last - 1]) {
            a[last] = a[last - 1];
            last -= 1;
        }
        a[last] = value;
    }

    fn linear_insert(&mut self, a: &mut [usize], first: usize, last: usize) {
        let value = a[last];
        if (self.less)(value, a[first]) {
            a.copy_within(first..last, first + 1);
            a[first] = value;
        } else {
            self.unguarded_linear_insert(a, last, value);
        }
    }

    fn insertion_sort(&mut self, a: &mut [usize], first: usize, last: usize) {
        for i in first + 1..last {
            self.linear_insert(a, first, i);
        }
    }

    fn final_insertion_sort(&mut self, a: &mut [usize], first: usize, last: usize) {
        if last - first > Self::THRESHOLD {
            self.insertion_sort(a, first, first + Self::THRESHOLD);
            for i in first + Self::THRESHOLD..last {
                let value = a[i];
                self.capped_linear_insert(a, i, value);
            }
        } else {
            self.insertion_sort(a, first, last);
        }
    }

    fn adjust_heap(
        &mut self,
        a: &mut [usize],
        first: usize,
        mut hole: usize,
        len: usize,
        value: usize,
    ) {
        let top = hole;
        let mut second = 2 * hole + 2;
        while second < len {
            if (self.less)(a[first + second], a[first + second - 1]) {
                second -= 1;
            }
            a[first + hole] = a[first + second];
            hole = second;
            second = 2 * (second + 1);
        }
        if second == len {
            a[first + hole] = a[first + second - 1];
            hole = second - 1;
        }
        self.push_heap(a, first, hole, top, value);
    }

    fn push_heap(
        &mut self,
        a: &mut [usize],
        first: usize,
        mut hole: usize,
        top: usize,
        value: usize,
    ) {
        while hole > top {
            let parent = (hole - 1) / 2;
            if !(self.less)(a[first + parent], value) {
                break;
            }
            a[first + hole] = a[first + parent];
            hole = parent;
        }
        a[first + hole] = value;
    }

    fn make_heap(&mut self, a: &mut [usize], first: usize, last: usize) {
        if last - first < 2 {
            return;
        }
        let len = last - first;
        let mut parent = (len - 2) / 2;
        loop {
            let value = a[first + parent];
            self.adjust_heap(a, first, parent, len, value);
            if parent == 0 {
                return;
            }
            parent -= 1;
        }
    }

    fn pop_heap_to(
        &mut self,
        a: &mut [usize],
        first: usize,
        last: usize,
        result: usize,
        value: usize,
    ) {
        a[result] = a[first];
        self.adjust_heap(a, first, 0, last - first, value);
    }

    fn partial_sort(&mut self, a: &mut [usize], first: usize, last: usize, middle: usize) {
        self.make_heap(a, first, middle);
        for i in middle..last {
            if (self.less)(a[i], a[first]) {
                let value = a[i];
                self.pop_heap_to(a, first, middle, i, value);
            }
        }
        // sort_heap
        let mut end = middle;
        while end - first > 1 {
            let value = a[end - 1];
            self.pop_heap_to(a, first, end - 1, end - 1, value);
            end -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(values: &[i32]) -> Vec<i32> {
        let mut idx: Vec<usize> = (0..values.len()).collect();
        let mut less = |a: usize, b: usize| values[a] < values[b];
        SortArray { less: &mut less }.sort(&mut idx);
        idx.into_iter().map(|i| values[i]).collect()
    }

    #[test]
    fn sorts_like_a_sort() {
        // A consistent order must come out sorted, for every size around the thresholds
        // (insertion sort, introsort, and the heap-sort fallback with a zero depth budget).
        let mut seed = 7u32;
        for n in [0, 1, 2, 15, 16, 17, 33, 100, 1000] {
            let v: Vec<i32> = (0..n)
                .map(|_| {
                    seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                    (seed >> 16) as i32 % 50
                })
                .collect();
            let mut want = v.clone();
            want.sort();
            assert_eq!(sorted(&v), want, "n = {n}");
        }
        let mut idx: Vec<usize> = (0..40).rev().collect();
        let mut less = |a: usize, b: usize| a < b;
        let mut s = SortArray { less: &mut less };
        s.partial_sort(&mut idx, 0, 40, 40);
        assert_eq!(idx, (0..40).collect::<Vec<_>>());
    }

    /// Comparisons that always answer "less" (Godot 3's array `<` on unordered elements) cost
    /// O(k log k), not the engine's k²/2.
    #[test]
    fn contradicting_comparisons_stay_bounded() {
        for n in [1_000usize, 8_000] {
            let mut idx: Vec<usize> = (0..n).collect();
            let mut calls = 0usize;
            let mut always = |_: usize, _: usize| {
                calls += 1;
                true
            };
            SortArray { less: &mut always }.sort(&mut idx);
            let log = (usize::BITS - n.leading_zeros()) as usize;
            assert!(calls <= 8 * n * log, "{calls} comparisons for {n} keys");
        }
    }

    #[test]
    fn never_panics_on_inconsistent_comparisons() {
        for n in [3, 17, 64, 500] {
            let mut idx: Vec<usize> = (0..n).collect();
            let mut always = |_: usize, _: usize| true;
            SortArray { less: &mut always }.sort(&mut idx);
            let mut seed = 1u64;
            let mut random = |_: usize, _: usize| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                seed >> 63 == 1
            };
            SortArray { less: &mut random }.sort(&mut idx);
            // Every step is a swap, shift or heap move: still a permutation.
            idx.sort();
            assert_eq!(idx, (0..n).collect::<Vec<_>>());
        }
    }
}
