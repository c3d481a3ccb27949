//! The symmetry groups of the games' boards, as types: a game names its
//! group ([`crate::game::Symmetric::Symmetry`]) and maps positions and
//! moves by its elements, so an element of one game's group cannot be
//! handed to another's.

use std::fmt::Debug;
use std::hash::Hash;

/// A finite group of board symmetries.
pub trait Symmetry: Copy + Eq + Ord + Hash + Debug + Send + Sync + 'static {
    /// Every element, the identity first.
    const ALL: &'static [Self];

    /// The element that undoes this one.
    fn inverse(self) -> Self;

    /// The element that changes nothing.
    fn identity() -> Self {
        Self::ALL[0]
    }

    /// Whether this is the identity.
    fn is_identity(self) -> bool {
        self == Self::identity()
    }
}

/// The group of a board with no symmetry: the identity alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Unit {
    /// The board as it is.
    Identity,
}

impl Symmetry for Unit {
    const ALL: &'static [Unit] = &[Unit::Identity];

    fn inverse(self) -> Unit {
        self
    }
}

/// The identity and one reflection (Hexapawn's left-right mirror).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mirror {
    /// The board as it is.
    Identity,
    /// The board reflected left to right.
    Reflect,
}

impl Symmetry for Mirror {
    const ALL: &'static [Mirror] = &[Mirror::Identity, Mirror::Reflect];

    fn inverse(self) -> Mirror {
        self
    }
}

/// The identity and the half turn (Hex's rhombus turned by 180°).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HalfTurn {
    /// The board as it is.
    Identity,
    /// The board turned half round.
    Rotate,
}

impl Symmetry for HalfTurn {
    const ALL: &'static [HalfTurn] = &[HalfTurn::Identity, HalfTurn::Rotate];

    fn inverse(self) -> HalfTurn {
        self
    }
}

/// The eight symmetries of the square (noughts and crosses): `Rotate(k)`
/// turns by k quarter turns; `Reflect(k)` turns by k quarter turns, then
/// reflects left to right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Square {
    /// Turned by this many quarter turns.
    Rotate(u8),
    /// Turned by this many quarter turns, then reflected left to right.
    Reflect(u8),
}

impl Symmetry for Square {
    const ALL: &'static [Square] = &[
        Square::Rotate(0),
        Square::Rotate(1),
        Square::Rotate(2),
        Square::Rotate(3),
        Square::Reflect(0),
        Square::Reflect(1),
        Square::Reflect(2),
        Square::Reflect(3),
    ];

    fn inverse(self) -> Square {
        match self {
            Square::Rotate(k) => Square::Rotate((4 - k) % 4),
            // A turn followed by a reflection is a reflection: its own inverse.
            Square::Reflect(k) => Square::Reflect(k),
        }
    }
}

impl Square {
    /// The element's place in [`Symmetry::ALL`], for tables indexed by it.
    pub fn index(self) -> usize {
        match self {
            Square::Rotate(k) => usize::from(k),
            Square::Reflect(k) => 4 + usize::from(k),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Square's elements as permutations of the 3×3 cells, composed by hand.
    fn apply(s: Square, cell: usize) -> usize {
        let (k, reflect) = match s {
            Square::Rotate(k) => (k, false),
            Square::Reflect(k) => (k, true),
        };
        let (mut r, mut c) = (cell / 3, cell % 3);
        for _ in 0..k {
            (r, c) = (c, 2 - r);
        }
        if reflect {
            c = 2 - c;
        }
        r * 3 + c
    }

    #[test]
    fn every_element_of_the_square_is_undone_by_its_inverse() {
        let mut images = std::collections::HashSet::new();
        for &s in Square::ALL {
            let perm: Vec<usize> = (0..9).map(|c| apply(s, c)).collect();
            images.insert(perm.clone());
            for (c, &image) in perm.iter().enumerate() {
                assert_eq!(apply(s.inverse(), image), c, "{s:?}");
            }
        }
        assert_eq!(images.len(), 8, "eight distinct symmetries");
        for (i, &s) in Square::ALL.iter().enumerate() {
            assert_eq!(s.index(), i);
        }
        assert!(Square::identity().is_identity() && !Square::Reflect(0).is_identity());
    }
}
