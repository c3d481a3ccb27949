//! The one clock the engine reads for its deadlines (a search's, a training
//! slice's). On every target but the browser's it is the standard
//! library's [`Instant`]; `wasm32-unknown-unknown` has no clock of its own
//! (there `std::time::Instant::now` panics), so there it is the page's
//! `performance.now()`, which the page hands the module as the import
//! `menace.now_ms`.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use page::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod page {
    use std::ops::{Add, Sub};
    use std::time::Duration;

    #[link(wasm_import_module = "menace")]
    extern "C" {
        /// Milliseconds since the page opened, never going back.
        fn now_ms() -> f64;
    }

    /// A moment, in milliseconds of the page's clock.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            // SAFETY: the import takes nothing and returns a number.
            Instant(unsafe { now_ms() })
        }

        /// The time since this moment (none if the clock stood still).
        pub fn elapsed(&self) -> Duration {
            Instant::now() - *self
        }

        /// The time from `earlier` to this moment (none if it came after).
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            *self - earlier
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d.as_secs_f64() * 1000.0)
        }
    }

    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            Duration::from_secs_f64(((self.0 - earlier.0) / 1000.0).max(0.0))
        }
    }
}
