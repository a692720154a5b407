//! A deterministic automaton over child element names for a content model,
//! built once per schema type: valid content is read with one step per child
//! instead of a walk of the model's particles per child. It decides only
//! validity; where and why invalid content fails is left to the exact matcher
//! of `validate`, which runs when the automaton rejects.
//!
//! The automaton is the model's position (Glushkov) automaton: a state per
//! element declaration in the model, reached by that declaration's name. XML
//! Schema's Unique Particle Attribution makes it deterministic for most
//! models. A model where it is not (one of Oozie's), or with a wildcard or
//! `xs:all` (the few that take other namespaces' elements), or with a bounded
//! `maxOccurs` over 1 (none of Oozie's), gets no automaton and is read by the
//! matchers alone.

use super::schema::{GroupKind, Occurs, Particle, TypeRef};
use rustc_hash::FxHashMap;

#[derive(Debug)]
pub(crate) struct ContentDfa {
    /// State 0 is the start; state `p + 1` is after the element of position `p`.
    states: Vec<State>,
}

#[derive(Debug, Default)]
struct State {
    /// Each child name allowed here, and the state it leads to.
    edges: Vec<(String, u32)>,
    accepting: bool,
    /// The type of the element this state is after (none for the start).
    ty: Option<TypeRef>,
}

/// The positions a fragment of the model can start and end with, and whether
/// it can be empty.
struct Fragment {
    first: Vec<usize>,
    last: Vec<usize>,
    nullable: bool,
}

impl Fragment {
    const EMPTY: Fragment = Fragment {
        first: Vec::new(),
        last: Vec::new(),
        nullable: true,
    };
}

/// The positions of a model (each an element declaration: its name and type)
/// and the positions that can follow each.
#[derive(Default)]
struct Glushkov {
    labels: Vec<(String, TypeRef)>,
    follow: Vec<Vec<usize>>,
}

/// Copies of a repeated particle unrolled at most (`minOccurs` of a particle
/// that may repeat without bound); Oozie's largest is 2.
const MAX_COPIES: u32 = 8;

impl Glushkov {
    fn particle(&mut self, particle: &Particle) -> Option<Fragment> {
        let Occurs { min, max } = particle.occurs();
        // `min` required copies, then the rest optional; an unbounded one
        // repeats its last copy.
        let copies = match max {
            None => min.max(1),
            Some(1) => 1,
            Some(_) => return None,
        };
        if copies > MAX_COPIES || min > copies {
            return None;
        }
        let mut whole = Fragment::EMPTY;
        for copy in 0..copies {
            let mut one = self.once(particle)?;
            if copy >= min {
                one.nullable = true;
            }
            if max.is_none() && copy + 1 == copies {
                self.link(&one.last, &one.first);
            }
            whole = self.then(whole, one);
        }
        Some(whole)
    }

    fn once(&mut self, particle: &Particle) -> Option<Fragment> {
        match particle {
            Particle::Element(decl) => {
                let at = self.labels.len();
                self.labels.push((decl.name.clone(), decl.ty));
                self.follow.push(Vec::new());
                Some(Fragment {
                    first: vec![at],
                    last: vec![at],
                    nullable: false,
                })
            }
            Particle::Group {
                kind: GroupKind::Sequence,
                items,
                ..
            } => items.iter().try_fold(Fragment::EMPTY, |whole, item| {
                let next = self.particle(item)?;
                Some(self.then(whole, next))
            }),
            Particle::Group {
                kind: GroupKind::Choice,
                items,
                ..
            } => {
                let mut any = Fragment {
                    nullable: items.is_empty(),
                    ..Fragment::EMPTY
                };
                for item in items {
                    let one = self.particle(item)?;
                    any.first.extend(one.first);
                    any.last.extend(one.last);
                    any.nullable |= one.nullable;
                }
                Some(any)
            }
            Particle::Group {
                kind: GroupKind::All,
                ..
            }
            | Particle::Any { .. } => None,
        }
    }

    /// Lets each position of `next` follow each of `ends`.
    fn link(&mut self, ends: &[usize], next: &[usize]) {
        for &end in ends {
            // (A position is an index of `follow`: `once` pushes both.)
            if let Some(follow) = self.follow.get_mut(end) {
                follow.extend_from_slice(next);
            }
        }
    }

    /// `a` followed by `b`.
    fn then(&mut self, a: Fragment, b: Fragment) -> Fragment {
        self.link(&a.last, &b.first);
        let mut first = a.first;
        if a.nullable {
            first.extend(b.first.iter().copied());
        }
        let mut last = b.last;
        if b.nullable {
            last.extend(a.last);
        }
        Fragment {
            first,
            last,
            nullable: a.nullable && b.nullable,
        }
    }
}

impl ContentDfa {
    /// The automaton of `content`, when it has one (see the module's
    /// comment). `child_types` is the type the validator gives each child
    /// name: a model that declares a name with two types gets none, so a
    /// child is validated with the same type whichever reading finds it.
    pub(crate) fn build(
        content: &Particle,
        child_types: &FxHashMap<String, TypeRef>,
    ) -> Option<ContentDfa> {
        let mut model = Glushkov::default();
        let whole = model.particle(content)?;
        let mut states: Vec<State> = Vec::with_capacity(model.labels.len() + 1);
        let types = std::iter::once(None).chain(model.labels.iter().map(|(_, ty)| Some(*ty)));
        let successors = std::iter::once(&whole.first).chain(&model.follow);
        for (ty, next) in types.zip(successors) {
            let mut state = State {
                ty,
                ..State::default()
            };
            for &at in next {
                let (name, ty) = model.labels.get(at)?;
                if child_types.get(name) != Some(ty) {
                    return None;
                }
                match state.edges.iter().find(|(n, _)| n == name) {
                    // The same position reached twice (a repeat of a
                    // nullable fragment) is one edge.
                    Some(&(_, to)) if to as usize == at + 1 => {}
                    // Two positions for one name: not deterministic.
                    Some(_) => return None,
                    None => state.edges.push((name.clone(), (at + 1) as u32)),
                }
            }
            states.push(state);
        }
        if let Some(start) = states.first_mut() {
            start.accepting = whole.nullable;
        }
        for &end in &whole.last {
            if let Some(after) = states.get_mut(end + 1) {
                after.accepting = true;
            }
        }
        Some(ContentDfa { states })
    }

    pub(crate) const START: u32 = 0;

    /// The state after a child `name` in `state`; none when the model does
    /// not allow it there.
    pub(crate) fn step(&self, state: u32, name: &str) -> Option<u32> {
        self.states
            .get(state as usize)?
            .edges
            .iter()
            .find(|(n, _)| n == name)
            .map(|&(_, to)| to)
    }

    /// The type of the child whose step reached `state` (none for the start).
    pub(crate) fn child_type(&self, state: u32) -> Option<TypeRef> {
        self.states.get(state as usize)?.ty
    }

    /// Whether content may end in `state`.
    pub(crate) fn accepts(&self, state: u32) -> bool {
        self.states.get(state as usize).is_some_and(|s| s.accepting)
    }
}
