//! The XML Schema subset Oozie's schemas use, read from the files in
//! `grammar/xsd/` (embedded by build.rs): global elements, named and anonymous
//! complex types with `sequence`/`choice`/`all` and occurrence bounds,
//! attributes with `use`, `simpleContent` extensions, simple types restricting a
//! built-in type by patterns, enumerations and integer bounds, and `xs:any`
//! with its namespace list, and `xs:include` of another embedded file (Oozie's
//! 1.0 schemas include oozie-common-1.0.xsd). Anything else in a schema file
//! is refused when the file is read, so a new schema cannot be silently
//! misread.

use super::content_dfa::ContentDfa;
use super::read;
use super::tree::{self, Element};
use regex::Regex;
use rustc_hash::FxHashMap;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, PoisonError};

include!(concat!(env!("OUT_DIR"), "/schemas.rs"));

const XS: &str = "http://www.w3.org/2001/XMLSchema";

/// Every embedded schema, by target namespace, each read when a document
/// first needs it: a run pays for the schemas of the namespaces it meets, not
/// for all of them (checking one workflow with a shell action reads two of 41).
pub struct Schemas {
    by_namespace: FxHashMap<&'static str, Embedded>,
    /// The patterns compiled so far, shared by the schemas as they are read.
    patterns: Mutex<Patterns>,
}

/// A schema file, and the schema once read.
struct Embedded {
    file: &'static str,
    text: &'static str,
    schema: OnceLock<Schema>,
}

static SCHEMAS: OnceLock<Schemas> = OnceLock::new();

/// The embedded schemas. They are part of the program: one that does not load
/// is a bug, caught by the tests, not an input error.
pub fn schemas() -> &'static Schemas {
    SCHEMAS.get_or_init(|| Schemas {
        // A file without a target namespace is only read where another includes it.
        by_namespace: SCHEMA_FILES
            .iter()
            .filter(|(_, namespace, _)| !namespace.is_empty())
            .map(|&(file, namespace, text)| {
                let schema = OnceLock::new();
                (namespace, Embedded { file, text, schema })
            })
            .collect(),
        patterns: Mutex::default(),
    })
}

impl Schemas {
    pub fn get(&self, namespace: &str) -> Option<&Schema> {
        let embedded = self.by_namespace.get(namespace)?;
        Some(embedded.schema.get_or_init(|| {
            let mut patterns = self.patterns.lock().unwrap_or_else(PoisonError::into_inner);
            let schema = Schema::load_sharing(embedded.file, embedded.text, &mut patterns)
                .unwrap_or_else(|e| panic!("{}: {e}", embedded.file));
            assert_eq!(
                schema.namespace, namespace,
                "{}: build.rs read another targetNamespace",
                embedded.file
            );
            schema
        }))
    }

    /// Reads the schemas of the namespaces of `families` (such as
    /// `uri:oozie:coordinator`) now, ahead of the documents that need them.
    pub(crate) fn read_ahead(&self, families: &[&str]) {
        for namespace in self.by_namespace.keys() {
            if families.iter().any(|f| split_version(namespace).0 == *f) {
                self.get(namespace);
            }
        }
    }

    /// Whether a schema of `namespace` is embedded (without reading it).
    pub(crate) fn has(&self, namespace: &str) -> bool {
        self.by_namespace.contains_key(namespace)
    }

    /// Every schema (each read now, if it was not).
    pub(crate) fn all(&self) -> impl Iterator<Item = &Schema> {
        self.by_namespace.keys().filter_map(|ns| self.get(ns))
    }

    /// The namespaces that declare a global element `name`, sorted (by
    /// family, then version: `uri:oozie:shell-action:0.3` before `...:1.0`).
    pub(crate) fn namespaces_with_root(&self, name: &str) -> Vec<&str> {
        let mut found: Vec<&str> = self
            .all()
            .filter(|s| s.global(name).is_some())
            .map(|s| s.namespace.as_str())
            .collect();
        found.sort_by(|a, b| {
            let (a, b) = (split_version(a), split_version(b));
            a.0.cmp(b.0).then_with(|| compare_versions(a.1, b.1))
        });
        found
    }

    /// The versions of the schemas of `family` (a namespace without its
    /// last `:VERSION`, such as `uri:oozie:shell-action`), oldest first.
    pub(crate) fn versions(&self, family: &str) -> Vec<&str> {
        let mut found: Vec<&str> = self
            .by_namespace
            .keys()
            .filter_map(|ns| ns.strip_prefix(family)?.strip_prefix(':'))
            .collect();
        found.sort_by(|a, b| compare_versions(a, b));
        found
    }

    /// The namespace to declare a `<name>` in, inside a document of
    /// namespace `document`: of the namespaces of other families declaring a
    /// global `name` (not another workflow version's `<ssh>` for workflow 0.5),
    /// the newest of the document's major version (workflow 0.5 pairs with
    /// shell-action 0.3, workflow 1.0 with shell-action 1.0), else the newest.
    pub(crate) fn namespace_for(&self, name: &str, document: &str) -> Option<&str> {
        let (family, version) = split_version(document);
        let found: Vec<&str> = self
            .namespaces_with_root(name)
            .into_iter()
            .filter(|ns| split_version(ns).0 != family && registered_together(document, ns))
            .collect();
        let major = version.split('.').next();
        found
            .iter()
            .rev()
            .find(|ns| split_version(ns).1.split('.').next() == major)
            .or(found.last())
            .copied()
    }
}

/// Whether Oozie validates an element of namespace `other` inside a document
/// of namespace `document`: its validator for a kind of document holds only
/// the schemas registered for that kind (oozie-default.xml:1742-1757,
/// 1770-1776, `SchemaService.wf.schemas`, `coord.schemas`): a workflow's
/// are the workflow, action and SLA schemas, a coordinator's the
/// coordinator and SLA schemas. (Bundles have no wildcard.)
pub(crate) fn registered_together(document: &str, other: &str) -> bool {
    let (family, _) = split_version(document);
    let (other_family, _) = split_version(other);
    let sla = other_family == "uri:oozie:sla";
    match family {
        "uri:oozie:workflow" => sla || other_family == family || other_family.ends_with("-action"),
        "uri:oozie:coordinator" => sla || other_family == family,
        _ => true,
    }
}

/// `(family, version)` of a namespace `family:version`; the version is empty
/// when there is no `:`.
pub(crate) fn split_version(namespace: &str) -> (&str, &str) {
    namespace.rsplit_once(':').unwrap_or((namespace, ""))
}

/// Orders dotted versions by their numbers (`0.2` < `0.2.5` < `0.10`); a
/// part that is not a number sorts as its text after the numbers.
fn compare_versions(a: &str, b: &str) -> std::cmp::Ordering {
    let parts = |v: &'_ str| -> Vec<(u64, String)> {
        v.split('.')
            .map(|p| match p.parse() {
                Ok(n) => (n, String::new()),
                Err(_) => (u64::MAX, p.to_string()),
            })
            .collect()
    };
    parts(a).cmp(&parts(b))
}

pub struct Schema {
    pub namespace: String,
    pub file: &'static str,
    globals: Vec<ElementDecl>,
    complex: Vec<ComplexType>,
    simple: Vec<SimpleType>,
}

#[derive(Debug, Clone)]
pub(crate) struct ElementDecl {
    pub name: String,
    pub ty: TypeRef,
    pub occurs: Occurs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Occurs {
    pub min: u32,
    /// `None`: unbounded.
    pub max: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TypeRef {
    Builtin(Builtin),
    Simple(usize),
    Complex(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Builtin {
    String,
    Boolean,
    /// Any of the integer types; the bounds are their value spaces.
    Integer {
        min: Option<i64>,
        max: Option<i64>,
    },
}

#[derive(Debug, Default)]
pub(crate) struct ComplexType {
    pub content: Option<Particle>,
    pub attributes: Vec<AttributeDecl>,
    pub mixed: bool,
    /// Text content of this type (`simpleContent`), instead of elements.
    pub simple_content: Option<TypeRef>,
    /// The type of each child element the content declares (the first
    /// declaration of a name), for checking children whatever their order.
    /// (Fx-hashed: looked up for every element of every file checked.)
    pub child_types: FxHashMap<String, TypeRef>,
    /// The content model as an automaton, which reads valid content.
    pub dfa: Option<ContentDfa>,
}

#[derive(Debug, Clone)]
pub(crate) enum Particle {
    Element(ElementDecl),
    Group {
        kind: GroupKind,
        items: Vec<Particle>,
        occurs: Occurs,
    },
    /// `processContents` is always `strict` (the default; Oozie's schemas
    /// write no other, and another is refused when a schema is read): an
    /// element the wildcard takes is valid only as its namespace's schema
    /// declares it.
    Any {
        namespaces: Wildcard,
        occurs: Occurs,
    },
}

impl Particle {
    /// How often the particle may occur.
    pub(crate) fn occurs(&self) -> Occurs {
        match self {
            Particle::Element(decl) => decl.occurs,
            Particle::Group { occurs, .. } | Particle::Any { occurs, .. } => *occurs,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GroupKind {
    Sequence,
    Choice,
    All,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Wildcard {
    Any,
    /// `##other`: any namespace but this one, and not none.
    Other(String),
    /// Listed namespaces; `None` is `##local`.
    List(Vec<Option<String>>),
}

impl Wildcard {
    pub(crate) fn admits(&self, namespace: Option<&str>) -> bool {
        match self {
            Wildcard::Any => true,
            Wildcard::Other(own) => namespace.is_some_and(|n| n != own),
            Wildcard::List(list) => list.iter().any(|n| n.as_deref() == namespace),
        }
    }
}

#[derive(Debug, Clone)]
pub(crate) struct AttributeDecl {
    pub name: String,
    pub ty: TypeRef,
    pub required: bool,
}

#[derive(Debug)]
pub(crate) struct SimpleType {
    pub name: String,
    pub base: Builtin,
    /// Each `(pattern as written, compiled and anchored)`.
    pub patterns: Vec<(String, Regex)>,
    pub enumeration: Vec<String>,
}

impl Schema {
    pub(crate) fn global(&self, name: &str) -> Option<&ElementDecl> {
        self.globals.iter().find(|d| d.name == name)
    }

    /// The names of the global elements, in declaration order.
    pub(crate) fn global_names(&self) -> impl Iterator<Item = &str> {
        self.globals.iter().map(|d| d.name.as_str())
    }

    pub(crate) fn complex_types(&self) -> &[ComplexType] {
        &self.complex
    }

    /// The complex type of a `TypeRef::Complex` of this schema.
    pub(crate) fn complex(&self, index: usize) -> Option<&ComplexType> {
        self.complex.get(index)
    }

    /// The simple type of a `TypeRef::Simple` of this schema.
    pub(crate) fn simple(&self, index: usize) -> Option<&SimpleType> {
        self.simple.get(index)
    }

    /// Reads one schema file on its own (the tests' way in; `schemas` reads
    /// them sharing compiled patterns).
    #[cfg(test)]
    pub fn load(file: &'static str, text: &str) -> Result<Schema, String> {
        Schema::load_sharing(file, text, &mut Patterns::default())
    }

    /// Reads one schema file, its patterns compiled once with `patterns`.
    fn load_sharing(
        file: &'static str,
        text: &str,
        patterns: &mut Patterns,
    ) -> Result<Schema, String> {
        let arena = tree::Arena::new();
        let root = schema_root(text, &arena)?;
        let namespace = root
            .attribute("targetNamespace")
            .ok_or("no targetNamespace")?
            .value
            .to_string();
        // The top-level declarations: this file's, and those of the files it
        // includes, which take its namespace (their type references are
        // unprefixed, and a name is looked up in this schema's types).
        let mut tops: Vec<&Element> = Vec::new();
        let mut included: Vec<&str> = Vec::new();
        let mut pending: Vec<&Element> = root.children.iter().collect();
        while let Some(child) = pending.pop() {
            if !is_xs(child, "include") {
                tops.push(child);
                continue;
            }
            let location = child
                .attribute("schemaLocation")
                .ok_or("an xs:include without a schemaLocation")?
                .value;
            if included.contains(&location) {
                continue;
            }
            included.push(location);
            let (_, _, text) = SCHEMA_FILES
                .iter()
                .find(|(name, _, _)| *name == location)
                .ok_or_else(|| format!("includes {location}, which is not in grammar/xsd/"))?;
            let other = schema_root(text, &arena)?;
            if other
                .attribute("targetNamespace")
                .is_some_and(|ns| ns.value != namespace)
            {
                return Err(format!("includes {location}, of another namespace"));
            }
            pending.extend(other.children.iter());
        }
        // Declaration order (the stack above reversed it).
        tops.reverse();
        let mut loader = Loader {
            schema: Schema {
                namespace,
                file,
                globals: Vec::new(),
                complex: Vec::new(),
                simple: Vec::new(),
            },
            complex_names: HashMap::new(),
            simple_names: HashMap::new(),
            patterns,
        };
        // Names first, so types can refer to types defined later (or to themselves).
        for &child in &tops {
            let name = || -> Result<String, String> {
                Ok(child
                    .attribute("name")
                    .ok_or("a type without a name")?
                    .value
                    .to_string())
            };
            if is_xs(child, "complexType") {
                loader
                    .complex_names
                    .insert(name()?, loader.schema.complex.len());
                loader.schema.complex.push(ComplexType::default());
            } else if is_xs(child, "simpleType") {
                let index = loader.simple_names.len();
                loader.simple_names.insert(name()?, index);
            }
        }
        // Simple types in declaration order (their bases are built-in types).
        for &child in tops.iter().filter(|c| is_xs(c, "simpleType")) {
            let simple = loader.simple_type(child)?;
            loader.schema.simple.push(simple);
        }
        for &child in &tops {
            match child.name {
                "complexType" => {
                    let complex = loader.complex_type(child)?;
                    // (Each named type got its slot in the first pass.)
                    let slot = child
                        .attribute("name")
                        .and_then(|name| loader.complex_names.get(name.value))
                        .and_then(|&index| loader.schema.complex.get_mut(index))
                        .ok_or("a type without a name")?;
                    *slot = complex;
                }
                "element" => {
                    let decl = loader.element(child)?;
                    loader.schema.globals.push(decl);
                }
                "simpleType" | "annotation" => {}
                other => return Err(format!("unsupported top-level xs:{other}")),
            }
        }
        Ok(loader.schema)
    }
}

/// The `xs:schema` root of schema file `text`.
fn schema_root<'s>(text: &'s str, arena: &'s tree::Arena) -> Result<&'s Element<'s>, String> {
    let doc = read::parse(text, arena).map_err(|d| d.message.clone())?;
    let root = arena.alloc(doc.root);
    if !is_xs(root, "schema") {
        return Err("the root is not xs:schema".into());
    }
    Ok(root)
}

fn is_xs(element: &Element, name: &str) -> bool {
    element.namespace == Some(XS) && element.name == name
}

/// Compiled patterns by their text. Oozie's schemas write the same two
/// identifier patterns eleven times, and compiling them was a third of
/// reading the schemas, which every run does before checking its first file.
/// (A `Regex` is shared, not copied, when cloned.)
#[derive(Default)]
struct Patterns(HashMap<String, Regex>);

struct Loader<'p> {
    schema: Schema,
    complex_names: HashMap<String, usize>,
    simple_names: HashMap<String, usize>,
    patterns: &'p mut Patterns,
}

impl Loader<'_> {
    /// A `type="prefix:NAME"` reference: an XML Schema built-in or a type of
    /// this schema.
    fn type_ref(&self, element: &Element, qname: &str) -> Result<TypeRef, String> {
        let local = qname.rsplit(':').next().unwrap_or(qname);
        let prefix = qname
            .strip_suffix(local)
            .unwrap_or("")
            .trim_end_matches(':');
        if prefix == "xs" || prefix == "xsd" {
            return builtin(local).map(TypeRef::Builtin);
        }
        if let Some(&index) = self.complex_names.get(local) {
            return Ok(TypeRef::Complex(index));
        }
        if let Some(&index) = self.simple_names.get(local) {
            return Ok(TypeRef::Simple(index));
        }
        Err(format!(
            "`<{}>` refers to an unknown type {qname}",
            element.name
        ))
    }

    fn occurs(element: &Element) -> Result<Occurs, String> {
        let number = |name: &str, default: u32| -> Result<Option<u32>, String> {
            match element.attribute(name).map(|a| a.value) {
                None => Ok(Some(default)),
                Some("unbounded") => Ok(None),
                Some(v) => v.parse().map(Some).map_err(|_| format!("bad {name} `{v}`")),
            }
        };
        Ok(Occurs {
            min: number("minOccurs", 1)?.ok_or("minOccurs cannot be unbounded")?,
            max: number("maxOccurs", 1)?,
        })
    }

    fn element(&mut self, element: &Element) -> Result<ElementDecl, String> {
        let name = element
            .attribute("name")
            .ok_or("an element without a name (ref= is not supported)")?
            .value
            .to_string();
        let ty = match element.attribute("type") {
            Some(t) => self.type_ref(element, t.value)?,
            None => match element.children.iter().find(|c| !is_xs(c, "annotation")) {
                Some(c) if is_xs(c, "complexType") => {
                    let ty = self.complex_type(c)?;
                    self.schema.complex.push(ty);
                    TypeRef::Complex(self.schema.complex.len() - 1)
                }
                Some(c) if is_xs(c, "simpleType") => {
                    let ty = self.simple_type(c)?;
                    self.schema.simple.push(ty);
                    TypeRef::Simple(self.schema.simple.len() - 1)
                }
                Some(c) => return Err(format!("unsupported xs:{} in element {name}", c.name)),
                // No type at all is xs:anyType; Oozie's schemas always give one.
                None => return Err(format!("element {name} has no type")),
            },
        };
        Ok(ElementDecl {
            name,
            ty,
            occurs: Self::occurs(element)?,
        })
    }

    fn complex_type(&mut self, element: &Element) -> Result<ComplexType, String> {
        let mut ty = ComplexType {
            mixed: element
                .attribute("mixed")
                .is_some_and(|m| m.value == "true"),
            ..ComplexType::default()
        };
        for child in element.children {
            match child.name {
                "sequence" | "choice" | "all" => ty.content = Some(self.particle(child)?),
                "attribute" => ty.attributes.push(self.attribute(child)?),
                "simpleContent" => {
                    let extension = child
                        .child("extension")
                        .ok_or("simpleContent without an extension")?;
                    let base = extension
                        .attribute("base")
                        .ok_or("an extension without a base")?;
                    ty.simple_content = Some(self.type_ref(extension, base.value)?);
                    for attribute in extension.children.iter().filter(|c| is_xs(c, "attribute")) {
                        ty.attributes.push(self.attribute(attribute)?);
                    }
                }
                "annotation" => {}
                other => return Err(format!("unsupported xs:{other} in a complexType")),
            }
        }
        if let Some(content) = &ty.content {
            child_types(content, &mut ty.child_types);
            ty.dfa = ContentDfa::build(content, &ty.child_types);
        }
        Ok(ty)
    }

    fn particle(&mut self, element: &Element) -> Result<Particle, String> {
        let occurs = Self::occurs(element)?;
        match element.name {
            "element" => Ok(Particle::Element(self.element(element)?)),
            "any" => {
                let namespaces = match element.attribute("namespace").map(|a| a.value) {
                    None | Some("##any") => Wildcard::Any,
                    Some("##other") => Wildcard::Other(self.schema.namespace.clone()),
                    Some(list) => Wildcard::List(
                        list.split_whitespace()
                            .map(|n| match n {
                                "##local" => None,
                                "##targetNamespace" => Some(self.schema.namespace.clone()),
                                n => Some(n.to_string()),
                            })
                            .collect(),
                    ),
                };
                if let Some(p) = element
                    .attribute("processContents")
                    .filter(|p| p.value != "strict")
                {
                    return Err(format!("unsupported processContents=\"{}\"", p.value));
                }
                Ok(Particle::Any { namespaces, occurs })
            }
            "sequence" | "choice" | "all" => {
                let kind = match element.name {
                    "sequence" => GroupKind::Sequence,
                    "choice" => GroupKind::Choice,
                    _ => GroupKind::All,
                };
                let items = element
                    .children
                    .iter()
                    .filter(|c| !is_xs(c, "annotation"))
                    .map(|c| self.particle(c))
                    .collect::<Result<_, _>>()?;
                Ok(Particle::Group {
                    kind,
                    items,
                    occurs,
                })
            }
            other => Err(format!("unsupported xs:{other} in a content model")),
        }
    }

    fn attribute(&mut self, element: &Element) -> Result<AttributeDecl, String> {
        let name = element
            .attribute("name")
            .ok_or("an attribute without a name")?
            .value
            .to_string();
        let ty = match (element.attribute("type"), element.child("simpleType")) {
            (Some(t), _) => self.type_ref(element, t.value)?,
            (None, Some(simple)) => {
                let ty = self.simple_type(simple)?;
                self.schema.simple.push(ty);
                TypeRef::Simple(self.schema.simple.len() - 1)
            }
            (None, None) => TypeRef::Builtin(Builtin::String),
        };
        let required = match element.attribute("use").map(|u| u.value) {
            None | Some("optional") => false,
            Some("required") => true,
            Some(other) => return Err(format!("unsupported use=\"{other}\"")),
        };
        Ok(AttributeDecl { name, ty, required })
    }

    fn simple_type(&mut self, element: &Element) -> Result<SimpleType, String> {
        let name = element
            .attribute("name")
            .map_or_else(String::new, |n| n.value.to_string());
        let restriction = element
            .child("restriction")
            .ok_or_else(|| format!("simple type {name}: only xs:restriction is supported"))?;
        let base = restriction
            .attribute("base")
            .ok_or("a restriction without a base")?;
        let TypeRef::Builtin(mut base) = self.type_ref(restriction, base.value)? else {
            return Err(format!(
                "simple type {name}: the base must be a built-in type"
            ));
        };
        let mut patterns = Vec::new();
        let mut enumeration = Vec::new();
        for facet in restriction.children {
            let value = facet
                .attribute("value")
                .ok_or("a facet without a value")?
                .value
                .to_string();
            match (facet.name, &mut base) {
                ("pattern", _) => {
                    let regex = match self.patterns.0.get(&value) {
                        Some(regex) => regex.clone(),
                        None => {
                            // XML Schema patterns match the whole value.
                            let regex = Regex::new(&format!("^(?:{value})$"))
                                .map_err(|e| format!("pattern {value}: {e}"))?;
                            self.patterns.0.insert(value.clone(), regex.clone());
                            regex
                        }
                    };
                    patterns.push((value, regex));
                }
                ("enumeration", _) => enumeration.push(value),
                ("minInclusive", Builtin::Integer { min, .. }) => *min = Some(integer(&value)?),
                ("maxInclusive", Builtin::Integer { max, .. }) => *max = Some(integer(&value)?),
                (other, _) => return Err(format!("unsupported facet xs:{other}")),
            }
        }
        Ok(SimpleType {
            name,
            base,
            patterns,
            enumeration,
        })
    }
}

fn integer(value: &str) -> Result<i64, String> {
    value.parse().map_err(|_| format!("bad integer `{value}`"))
}

fn builtin(local: &str) -> Result<Builtin, String> {
    let integer = |min, max| Builtin::Integer { min, max };
    Ok(match local {
        "string" | "anyURI" | "token" | "normalizedString" => Builtin::String,
        "boolean" => Builtin::Boolean,
        "integer" | "long" => integer(None, None),
        "int" => integer(Some(i32::MIN.into()), Some(i32::MAX.into())),
        "nonNegativeInteger" => integer(Some(0), None),
        "positiveInteger" => integer(Some(1), None),
        "unsignedInt" => integer(Some(0), Some(u32::MAX.into())),
        "unsignedShort" => integer(Some(0), Some(u16::MAX.into())),
        "short" => integer(Some(i16::MIN.into()), Some(i16::MAX.into())),
        other => return Err(format!("unsupported built-in type xs:{other}")),
    })
}

fn child_types(particle: &Particle, types: &mut FxHashMap<String, TypeRef>) {
    match particle {
        Particle::Element(decl) => {
            types.entry(decl.name.clone()).or_insert(decl.ty);
        }
        Particle::Group { items, .. } => items.iter().for_each(|p| child_types(p, types)),
        Particle::Any { .. } => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_schema_loads() {
        let all = schemas();
        for version in ["0.1", "0.2", "0.3", "0.4", "0.5"] {
            let ns = format!("uri:oozie:coordinator:{version}");
            let schema = all.get(&ns).unwrap_or_else(|| panic!("{ns}"));
            assert!(schema.global("coordinator-app").is_some(), "{ns}");
            assert!(schema.global("datasets").is_some(), "{ns}");
        }
        for ns in ["uri:oozie:sla:0.1", "uri:oozie:sla:0.2"] {
            assert!(all.get(ns).unwrap().global("info").is_some(), "{ns}");
        }
        // One namespace per file (each file read under the namespace build.rs
        // found, which `get` checks), but for the files only included
        // (oozie-common-1.0.xsd), each included by some schema.
        assert_eq!(all.all().count(), all.by_namespace.len());
        let included: Vec<&str> = SCHEMA_FILES
            .iter()
            .filter(|(_, namespace, _)| namespace.is_empty())
            .map(|(file, _, _)| *file)
            .collect();
        assert_eq!(included, ["oozie-common-1.0.xsd"]);
        assert!(SCHEMA_FILES.iter().any(|(_, _, text)| {
            text.contains(r#"<xs:include schemaLocation="oozie-common-1.0.xsd"/>"#)
        }));
        assert_eq!(SCHEMA_FILES.len(), all.by_namespace.len() + 1);
    }

    #[test]
    fn an_included_file_lends_its_types_to_the_including_namespace() {
        // shell-action-1.0.xsd includes oozie-common-1.0.xsd (LAUNCHER,
        // PREPARE, CONFIGURATION, ...), whose references are unprefixed.
        let shell = schemas().get("uri:oozie:shell-action:1.0").unwrap();
        let TypeRef::Complex(action) = shell.global("shell").unwrap().ty else {
            panic!("shell is a complex type");
        };
        let launcher = shell.complex(action).unwrap().child_types["launcher"];
        let TypeRef::Complex(launcher) = launcher else {
            panic!("LAUNCHER is a complex type");
        };
        assert_eq!(
            shell.complex(launcher).unwrap().child_types["memory.mb"],
            TypeRef::Builtin(Builtin::Integer {
                min: Some(0),
                max: Some(u32::MAX.into())
            })
        );
        let text = r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="u"><xs:include schemaLocation="nowhere.xsd"/></xs:schema>"#;
        let err = Schema::load("t.xsd", text).err().unwrap();
        assert!(
            err.contains("nowhere.xsd, which is not in grammar/xsd/"),
            "{err}"
        );
    }

    #[test]
    fn identifier_pattern_matches_whole_values() {
        let schema = schemas().get("uri:oozie:coordinator:0.5").unwrap();
        let identifier = schema
            .simple
            .iter()
            .find(|s| s.name == "IDENTIFIER")
            .unwrap();
        let regex = &identifier.patterns[0].1;
        assert!(regex.is_match("hourly-logs_2"));
        assert!(!regex.is_match("2logs"));
        assert!(!regex.is_match("logs "));
    }

    #[test]
    fn unsupported_constructs_are_refused() {
        let text = r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="u"><xs:group name="g"/></xs:schema>"#;
        let err = Schema::load("t.xsd", text).err().unwrap();
        assert!(err.contains("unsupported top-level xs:group"), "{err}");
    }

    /// Oozie validates a document against its own kind's schemas only
    /// (oozie-default.xml:1742-1757, 1770-1776).
    #[test]
    fn a_documents_kind_decides_which_schemas_it_meets() {
        let wf = "uri:oozie:workflow:0.5";
        assert!(registered_together(wf, "uri:oozie:shell-action:0.3"));
        assert!(registered_together(wf, "uri:oozie:sla:0.2"));
        assert!(registered_together(wf, "uri:oozie:workflow:0.4"));
        assert!(!registered_together(wf, "uri:oozie:coordinator:0.5"));
        let coord = "uri:oozie:coordinator:0.4";
        assert!(registered_together(coord, "uri:oozie:sla:0.1"));
        assert!(!registered_together(coord, "uri:oozie:shell-action:0.3"));
        // The namespace suggested for a bare element is of the same kind.
        assert_eq!(schemas().namespace_for("datasets", wf), None);
        assert_eq!(
            schemas().namespace_for("shell", wf),
            Some("uri:oozie:shell-action:0.3")
        );
    }
}
