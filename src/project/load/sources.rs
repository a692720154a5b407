//! The files a command read, kept to render the problems found in them.

use crate::config::Property;
use crate::diag::render::{
    Lines, human, human_styled, related_note, related_note_without_text, without_excerpt,
};
use crate::diag::{FileRef, Located};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// What a diagnostic about the command line names as its file.
pub(super) const COMMAND_LINE: &str = "<-D>";

/// The files a command read, for rendering diagnostics: index 0 is the
/// application; `Located::file` indexes the others.
///
/// Texts are shared: the application's parsed tree borrows its text while
/// included and configuration files are added.
#[derive(Default)]
pub struct Sources {
    pub files: Vec<(String, Arc<str>)>,
    /// Files looked for and not found (an `<include>` not there yet): a
    /// file created there changes what the application reads.
    pub absent: Vec<PathBuf>,
    /// Each file's lines, found when first needed (a file with thousands of
    /// problems is then read for its lines once, not once a problem).
    lines: Vec<OnceLock<Lines>>,
}

impl Sources {
    pub fn add(&mut self, name: String, text: impl Into<Arc<str>>) -> usize {
        self.files.push((name, text.into()));
        self.lines.push(OnceLock::new());
        self.files.len() - 1
    }

    /// The application's text (file 0), empty before it is added.
    pub(crate) fn application(&self) -> &str {
        self.files.first().map_or("", |(_, text)| text)
    }

    /// The lines of file `file`.
    fn lines(&self, file: usize) -> Option<(&str, &Lines)> {
        let (_, text) = self.files.get(file)?;
        let lines = self.lines.get(file)?.get_or_init(|| Lines::new(text));
        Some((text, lines))
    }

    /// `located` rendered as a human-readable diagnostic.
    pub fn render(&self, located: &Located) -> String {
        self.render_styled(located, false, |_| Vec::new())
    }

    /// [`Sources::render`], in a terminal's colours when `colour` says so,
    /// with the notes `notes` makes from the text of the diagnostic's file
    /// shown after its help, and a note for each place in another file.
    pub(crate) fn render_styled(
        &self,
        located: &Located,
        colour: bool,
        notes: impl FnOnce(&str) -> Vec<String>,
    ) -> String {
        let file = self.index(located.file);
        let mut out = match (self.files.get(file), self.lines(file)) {
            _ if located.file == FileRef::CommandLine => without_excerpt(
                &located.diagnostic,
                "on the command line (`-D`)",
                colour,
                notes(""),
            ),
            (Some((name, _)), Some((text, lines))) => {
                human_styled(&located.diagnostic, name, text, lines, colour, notes(text))
            }
            _ => human(&located.diagnostic, "<unknown file>", ""),
        };
        for related in &located.diagnostic.related {
            match self.index_of(&related.file).and_then(|i| self.lines(i)) {
                Some((text, lines)) => out.push_str(&related_note(related, text, lines, colour)),
                None => out.push_str(&related_note_without_text(related)),
            }
        }
        out
    }

    /// The text of the line of file `file` that holds byte `offset`, without
    /// its line end.
    pub(crate) fn line_text(&self, file: usize, offset: usize) -> &str {
        self.lines(file).map_or("", |(text, lines)| {
            let range = lines.range(text, lines.line(offset));
            text.get(range).unwrap_or("").trim_end_matches(['\r', '\n'])
        })
    }

    /// The index among the files of the text `file` is about: the
    /// command line's is the file named [`COMMAND_LINE`] (a check of a `-D`
    /// definition adds it, with no text). Past the files when there is none.
    pub(crate) fn index(&self, file: FileRef) -> usize {
        file.index()
            .or_else(|| self.index_of(COMMAND_LINE))
            .unwrap_or(usize::MAX)
    }

    /// The index of the file named `name`, if it was read.
    pub(crate) fn index_of(&self, name: &str) -> Option<usize> {
        self.files.iter().position(|(n, _)| n == name)
    }

    /// The 1-based line and column (in characters) of byte `offset` of file
    /// `file`.
    pub(crate) fn line_column(&self, file: usize, offset: usize) -> (usize, usize) {
        self.lines(file)
            .map_or((1, 1), |(text, lines)| lines.line_column(text, offset))
    }
}

impl Sources {
    /// Where the job property `name` is set among the configuration files
    /// read (the last definition wins, as the merge does): the file's
    /// index, its name, its text and the property.
    pub(crate) fn property_definition(&self, name: &str) -> Option<(usize, &str, &str, Property)> {
        self.files
            .iter()
            .enumerate()
            .skip(1)
            .rev()
            .find_map(|(index, (file, text))| {
                let properties = properties_of(file, text)?;
                let found = properties.into_iter().rev().find(|p| p.name == name)?;
                Some((index, file.as_str(), &**text, found))
            })
    }
}

/// The properties of a configuration file (`.properties`, else Hadoop XML).
pub fn properties_of(file: &str, text: &str) -> Option<Vec<Property>> {
    if file.ends_with(".xml") {
        crate::config::parse_hadoop_xml(text).ok()
    } else {
        crate::config::properties::parse(text).ok()
    }
}
