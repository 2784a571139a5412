//! What a capture's `cancel` puts back, kept on the stack where it can be: a copy of the position's pieces,
//! marks and owners (`Saved`), or the log of the takes made (`TakeLog`).

use crate::engine::State;
use crate::ir::*;

/// What a capture with `cancel` may have to put back (pieces, marks, owners, and the lives of marks `for N
/// plies`), kept on the stack when the board is small and no mark is timed: the capture of most games with a
/// grand-slam rule then allocates nothing.
pub(crate) enum Saved {
    Inline { bytes: [u8; 192], counts: usize, marks: usize, owner: usize },
    Heap(Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>),
}

impl Saved {
    pub(crate) fn take(st: &State) -> Saved {
        let (counts, marks, owner) = (st.counts.len(), st.marks.len(), st.owner.len());
        let mut bytes = [0u8; 192];
        if counts + marks + owner > bytes.len() || !st.mark_lives.is_empty() {
            return Saved::Heap(st.counts.clone(), st.marks.clone(), st.owner.clone(), st.mark_lives.clone());
        }
        bytes[..counts].copy_from_slice(&st.counts);
        bytes[counts..counts + marks].copy_from_slice(&st.marks);
        bytes[counts + marks..counts + marks + owner].copy_from_slice(&st.owner);
        Saved::Inline { bytes, counts, marks, owner }
    }

    /// Puts the saved pieces, marks and owners back.
    pub(crate) fn restore(&self, st: &mut State) {
        match self {
            Saved::Heap(counts, marks, owner, until) => {
                st.counts.copy_from_slice(counts);
                st.marks.copy_from_slice(marks);
                st.owner.copy_from_slice(owner);
                st.mark_lives.copy_from_slice(until);
            }
            Saved::Inline { bytes, counts, marks, owner } => {
                let (counts, marks, owner) = (*counts, *marks, *owner);
                st.counts.copy_from_slice(&bytes[..counts]);
                st.marks.copy_from_slice(&bytes[counts..counts + marks]);
                st.owner.copy_from_slice(&bytes[counts + marks..counts + marks + owner]);
            }
        }
    }
}

/// The takes of a `FastCapture` as they were made, on the stack: each the place taken from, the place
/// taken to, the pieces taken and what the place taken to held before, undone last first when the
/// capture's `cancel` holds. Takes move pieces and nothing else, so this puts back all they changed.
pub(super) struct TakeLog {
    takes: [(PlaceId, PlaceId, u8, u8); TakeLog::CAP],
    len: usize,
}

impl TakeLog {
    pub(super) const CAP: usize = 16;

    pub(super) fn new() -> TakeLog {
        TakeLog { takes: [(0, 0, 0, 0); TakeLog::CAP], len: 0 }
    }

    #[inline(always)]
    pub(super) fn push(&mut self, take: (PlaceId, PlaceId, u8, u8)) {
        if let Some(slot) = self.takes.get_mut(self.len) {
            *slot = take;
            self.len += 1;
        }
    }

    pub(super) fn undo(&self, counts: &mut [u8]) {
        for &(from, to, n, held) in self.takes[..self.len].iter().rev() {
            counts[to as usize] = held;
            counts[from as usize] = n;
        }
    }
}
