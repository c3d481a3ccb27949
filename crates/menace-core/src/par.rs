//! Work spread over rayon's threads with the `parallel` feature, or done in
//! turn on the caller's thread without it: the same names either way, so
//! that the code reads the same, and the same results (every parallel step
//! here collects in order).

#[cfg(feature = "parallel")]
pub(crate) use rayon::{current_num_threads, join, prelude::*, scope};

#[cfg(not(feature = "parallel"))]
pub(crate) use serial::*;

#[cfg(not(feature = "parallel"))]
mod serial {
    /// Run `a`, then `b`.
    pub(crate) fn join<A, B>(a: impl FnOnce() -> A, b: impl FnOnce() -> B) -> (A, B) {
        let a = a();
        (a, b())
    }

    /// One thread: the caller's.
    pub(crate) fn current_num_threads() -> usize {
        1
    }

    /// A scope whose spawned work runs at once, in turn.
    pub(crate) struct Scope;

    impl Scope {
        /// Run `work` now.
        pub(crate) fn spawn(&self, work: impl FnOnce(&Scope)) {
            work(self)
        }
    }

    /// Run `body` with a scope whose spawned work runs at once.
    pub(crate) fn scope<R>(body: impl FnOnce(&Scope) -> R) -> R {
        body(&Scope)
    }

    /// A slice's parallel methods, in turn.
    pub(crate) trait ParallelSlice<T> {
        fn par_iter(&self) -> std::slice::Iter<'_, T>;
        fn par_chunks(&self, size: usize) -> std::slice::Chunks<'_, T>;
        fn par_sort_unstable_by(&mut self, compare: impl FnMut(&T, &T) -> std::cmp::Ordering);
    }

    impl<T> ParallelSlice<T> for [T] {
        fn par_iter(&self) -> std::slice::Iter<'_, T> {
            self.iter()
        }

        fn par_chunks(&self, size: usize) -> std::slice::Chunks<'_, T> {
            self.chunks(size)
        }

        fn par_sort_unstable_by(&mut self, compare: impl FnMut(&T, &T) -> std::cmp::Ordering) {
            self.sort_unstable_by(compare)
        }
    }

    /// `into_par_iter`, in turn.
    pub(crate) trait IntoParallelIterator: IntoIterator + Sized {
        fn into_par_iter(self) -> Self::IntoIter {
            self.into_iter()
        }
    }

    impl<I: IntoIterator> IntoParallelIterator for I {}

    /// `map_init`: one state for the whole run, as one thread of rayon's has.
    pub(crate) trait MapInit: Iterator + Sized {
        fn map_init<S, R>(
            self,
            init: impl Fn() -> S,
            mut map: impl FnMut(&mut S, Self::Item) -> R,
        ) -> impl Iterator<Item = R> {
            let mut state = init();
            self.map(move |item| map(&mut state, item))
        }
    }

    impl<I: Iterator> MapInit for I {}
}
