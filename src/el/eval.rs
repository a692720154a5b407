//! Evaluation with commons-el 1.0 semantics, as Oozie's `ELEvaluator` drives it:
//! an undefined variable is an error naming it, functions are resolved (and their
//! arity checked) only when a call is evaluated, `&&`/`||`/`?:` short-circuit.

use super::ast::{Access, BinaryOp, Call, Expr, ExprKind, Part, Suffix, Template, UnaryOp};
use super::library::{self, ConstValue, FunctionDef, Imp, Library, Resolved, Ty};
use super::value::{
    ArithOp, RelOp, Value, ValueType, arithmetic, equals, is_empty, negate, relational,
};
use crate::diag::Diagnostic;
use crate::diag::rules::{
    EL_ARITY, EL_EVAL, EL_NEEDS_CONTEXT, EL_UNKNOWN_FUNCTION, EL_UNKNOWN_VARIABLE,
};
use crate::span::Span;
use crate::time::datetime::ProcessingZone;
use rustc_hash::FxBuildHasher;
use smallvec::SmallVec;
use std::borrow::Cow;
use std::hash::BuildHasher;

/// Where variables come from: job properties (strings) or null.
pub trait Variables {
    /// `None`: not defined; `Some(None)`: defined as null.
    fn lookup(&self, name: &str) -> Option<Option<&str>>;
}

/// Job properties by name. Fx hashing: a variable is looked up at every use, and
/// the names are short and not attacker-chosen.
pub type VarMap = hashbrown::HashMap<String, Option<String>, FxBuildHasher>;

impl Variables for VarMap {
    fn lookup(&self, name: &str) -> Option<Option<&str>> {
        // Names are short: compared in place rather than by a library call
        // (`memcmp` was a twentieth of evaluation).
        let same = |key: &String| {
            key.len() == name.len() && key.bytes().zip(name.bytes()).all(|(a, b)| a == b)
        };
        self.raw_entry()
            .from_hash(FxBuildHasher.hash_one(name), same)
            .map(|(_, v)| v.as_deref())
    }
}

/// What evaluates the functions that need more than their arguments (a
/// frequency being lowered, a dataset and an action being materialized).
pub trait Context {
    /// `None` when this context cannot evaluate `def`: the evaluator then
    /// reports what the function needs.
    fn call(
        &self,
        def: &'static FunctionDef,
        args: &[Value],
    ) -> Option<Result<Value<'static>, String>>;
}

/// What an evaluation sees.
pub struct Env<'a> {
    pub vars: &'a dyn Variables,
    pub library: Library,
    pub context: Option<&'a dyn Context>,
    /// Oozie's `oozie.processing.timezone`: what datetimes are written in.
    pub processing_zone: ProcessingZone,
}

/// No variables at all: what constant folding evaluates with, and a
/// uri-template's second phase under its instance fields.
pub struct NoVariables;

impl Variables for NoVariables {
    fn lookup(&self, _: &str) -> Option<Option<&str>> {
        None
    }
}

impl Env<'static> {
    /// The environment of an expression made only of literals and operators,
    /// which reads neither variables nor functions.
    pub(super) fn constant() -> Env<'static> {
        Env {
            vars: &NoVariables,
            library: Library::Coordinator,
            context: None,
            processing_zone: ProcessingZone::UTC,
        }
    }
}

/// The value of an operation whose operands are all literals; `None` when it
/// fails (the failure is then reported where the expression is evaluated).
pub(super) fn eval_constant(expr: &Expr) -> Option<Value<'_>> {
    eval(expr, &Env::constant(), None).ok()
}

/// The job property Oozie reads for `coord:user()` / `wf:user()`.
pub(crate) const USER_NAME: &str = "user.name";

/// Renders a text value as Oozie does (evaluated to `String`): literal text
/// verbatim, each block's value coerced to a string. Returns the raw type of a
/// single-block text, else `string`.
pub fn render_into(
    template: &Template,
    env: &Env,
    out: &mut String,
) -> Result<ValueType, Diagnostic> {
    render_resolved_into(template, None, env, out)
}

/// [`render_into`], the functions `template` calls found in `resolved`
/// (made of `template`, or of the tree it was folded from), when given.
pub(super) fn render_resolved_into(
    template: &Template,
    resolved: Option<&Resolved>,
    env: &Env,
    out: &mut String,
) -> Result<ValueType, Diagnostic> {
    if let Some(expr) = template.single_expr() {
        let v = eval(expr, env, resolved)?;
        v.write_to(out);
        return Ok(v.value_type());
    }
    for part in &template.parts {
        match part {
            Part::Text { text, .. } => out.push_str(text),
            Part::Block { expr, .. } => eval(expr, env, resolved)?.write_to(out),
        }
    }
    Ok(ValueType::String)
}

pub fn render(template: &Template, env: &Env) -> Result<(String, ValueType), Diagnostic> {
    render_resolved(template, None, env)
}

/// [`render`], the functions `template` calls found in `resolved` when
/// given (see [`render_resolved_into`]).
pub(super) fn render_resolved(
    template: &Template,
    resolved: Option<&Resolved>,
    env: &Env,
) -> Result<(String, ValueType), Diagnostic> {
    // A single block's string is taken as it is, not copied.
    if let Some(expr) = template.single_expr() {
        let v = eval(expr, env, resolved)?;
        let ty = v.value_type();
        return Ok((v.into_text(), ty));
    }
    // (Room for the text as written, which the value is usually near: one
    // allocation rather than one per part.)
    let mut out = String::with_capacity(template.span.range().len());
    let ty = render_resolved_into(template, resolved, env, &mut out)?;
    Ok((out, ty))
}

/// (A `Diagnostic` is one pointer wide: the results passed up the tree stay small.)
type Evaluated<'a> = Result<Value<'a>, Diagnostic>;

#[cold]
#[inline(never)]
fn fail(span: Span, message: String) -> Diagnostic {
    Diagnostic::error(EL_EVAL, span, message)
}

/// Evaluates `expr`: a leaf (about half of all nodes) in place, an operation
/// by a call.
#[inline(always)]
fn eval<'a>(expr: &'a Expr, env: &Env<'a>, resolved: Option<&Resolved>) -> Evaluated<'a> {
    match &expr.kind {
        ExprKind::Null => Ok(Value::Null),
        ExprKind::Bool(b) => Ok(Value::Bool(*b)),
        ExprKind::Long(l) => Ok(Value::Long(*l)),
        ExprKind::Double(d) => Ok(Value::Double(*d)),
        ExprKind::Str(s) => Ok(Value::Str(Cow::Borrowed(s))),
        ExprKind::Var(name) => variable(name, expr.span, env),
        _ => eval_operation(expr, env, resolved),
    }
}

#[inline(never)]
fn eval_operation<'a>(expr: &'a Expr, env: &Env<'a>, resolved: Option<&Resolved>) -> Evaluated<'a> {
    match &expr.kind {
        ExprKind::Unary(unary) => {
            let mut v = eval(&unary.operand, env, resolved)?;
            for (op, op_span) in unary.ops.iter().rev() {
                v = match op {
                    UnaryOp::Not => Value::Bool(!v.to_bool().map_err(|m| fail(*op_span, m))?),
                    UnaryOp::Minus => negate(&v).map_err(|m| fail(*op_span, m))?,
                    UnaryOp::Empty => Value::Bool(is_empty(&v)),
                };
            }
            Ok(v)
        }
        ExprKind::Binary(binary) => {
            let mut v = eval(&binary.first, env, resolved)?;
            for &(op, op_span, ref operand) in &binary.rest {
                let err = |m| fail(op_span, m);
                v = match op {
                    // And/Or coerce the left side first and skip the right side
                    // when it cannot change the result (BinaryOperatorExpression).
                    BinaryOp::And | BinaryOp::Or => {
                        let left = v.to_bool().map_err(err)?;
                        if left == (op == BinaryOp::Or) {
                            Value::Bool(left)
                        } else {
                            Value::Bool(eval(operand, env, resolved)?.to_bool().map_err(err)?)
                        }
                    }
                    _ => {
                        let right = eval(operand, env, resolved)?;
                        apply_binary(op, &v, &right).map_err(err)?
                    }
                };
            }
            Ok(v)
        }
        ExprKind::Conditional(c) => {
            let cond = eval(&c.cond, env, resolved)?
                .to_bool()
                .map_err(|m| fail(c.cond.span, m))?;
            eval(if cond { &c.then } else { &c.otherwise }, env, resolved)
        }
        ExprKind::Access(access) => eval_access(access, env, resolved),
        ExprKind::Call(call) => eval_call(expr, call, env, resolved),
        // Not reached from `eval`, which evaluates leaves itself.
        ExprKind::Null
        | ExprKind::Bool(_)
        | ExprKind::Long(_)
        | ExprKind::Double(_)
        | ExprKind::Str(_)
        | ExprKind::Var(_) => eval(expr, env, resolved),
    }
}

// Accesses and calls are kept out of `eval`'s stack frame, which every node pays for.
#[inline(never)]
fn eval_access<'a>(
    access: &'a Access,
    env: &Env<'a>,
    resolved: Option<&Resolved>,
) -> Evaluated<'a> {
    let mut v = eval(&access.base, env, resolved)?;
    for suffix in &access.suffixes {
        // A null base stays null without evaluating the index (ComplexValue).
        if matches!(v, Value::Null) {
            return Ok(v);
        }
        let (key, span, operator) = match suffix {
            Suffix::Property { name, span } => {
                (Value::Str(Cow::Borrowed(name.as_str())), *span, ".")
            }
            Suffix::Index { index, span } => {
                let key = eval(index, env, resolved)?;
                if matches!(key, Value::Null) {
                    return Ok(Value::Null);
                }
                (key, *span, "[]")
            }
        };
        // Only a running workflow's maps have entries: strings, numbers and
        // booleans have none. (commons-el would reach Java bean getters such
        // as `'abc'.bytes`; no app does.)
        v = match v.entry(&key) {
            Some(found) => found,
            None => {
                return Err(fail(
                    span,
                    format!(
                        "Unable to find a value for \"{}\" in object of class \"{}\" using operator \"{operator}\"",
                        key.to_text(),
                        v.java_class()
                    ),
                ));
            }
        };
    }
    Ok(v)
}

#[inline(never)]
fn eval_call<'a>(
    expr: &'a Expr,
    call: &'a Call,
    env: &Env<'a>,
    resolved: Option<&Resolved>,
) -> Evaluated<'a> {
    // The qualified name is only for messages: not built on success.
    let qualified = || call.qualified_name();
    let def = match resolved {
        Some(resolved) => resolved.function(env.library, call),
        None => library::function(env.library, call),
    };
    let Some(def) = def else {
        return Err(Diagnostic::error(
            EL_UNKNOWN_FUNCTION,
            call.name_span,
            format!("No function is mapped to the name \"{}\"", qualified()),
        ));
    };
    if def.params.len() != call.args.len() {
        return Err(Diagnostic::error(
            EL_ARITY,
            expr.span,
            format!(
                "The function \"{}\" requires {} arguments but was passed {}",
                qualified(),
                def.params.len(),
                call.args.len()
            ),
        )
        .with_help(format!("the signature is `{}`", def.signature())));
    }
    // (Inline for up to three, as nearly every function takes: a list on
    // the heap was an allocation at every call.)
    let mut args: SmallVec<[Value; 3]> = SmallVec::new();
    for (arg, ty) in call.args.iter().zip(def.params) {
        let v = eval(arg, env, resolved)?;
        args.push(coerce_arg(v, *ty).map_err(|m| fail(arg.span, m))?);
    }
    match def.imp {
        Imp::Pure(f) => f(&args).map_err(|m| fail(expr.span, m)),
        Imp::Datetime(f) => f(&args, env.processing_zone).map_err(|m| fail(expr.span, m)),
        Imp::JobProperty => arguments(&args)
            .map(|[name]| job_property(env, &name.to_text()))
            .map_err(|m| fail(expr.span, m)),
        Imp::JobUser => Ok(job_property(env, USER_NAME)),
        Imp::Needs(_) if let Some(result) = env.context.and_then(|c| c.call(def, &args)) => {
            result.map_err(|m| fail(expr.span, m))
        }
        Imp::Needs(need) => Err(Diagnostic::error(
            EL_NEEDS_CONTEXT,
            expr.span,
            format!(
                "{}() needs {}; it cannot be evaluated on its own",
                qualified(),
                need.describe()
            ),
        )),
    }
}

/// The arguments of a call to a function of `N` parameters, as an array
/// (`eval_call` has checked their number before the function is called).
pub(super) fn arguments<'v, 'a, const N: usize>(
    args: &'v [Value<'a>],
) -> Result<&'v [Value<'a>; N], String> {
    args.try_into()
        .map_err(|_| format!("{N} arguments are required but {} were passed", args.len()))
}

/// A job configuration property as `coord:conf`/`wf:conf` return it: null when absent.
fn job_property(env: &Env, name: &str) -> Value<'static> {
    match env.vars.lookup(name).flatten() {
        Some(v) => Value::Str(Cow::Owned(v.to_string())),
        None => Value::Null,
    }
}

#[inline(always)]
fn variable<'a>(name: &'a str, span: Span, env: &Env<'a>) -> Evaluated<'a> {
    match env.vars.lookup(name) {
        Some(v) => Ok(v.map_or(Value::Null, |s| Value::Str(Cow::Borrowed(s)))),
        None => not_a_property(name, span, env),
    }
}

/// A name no job property defines: an EL constant, or an error.
#[inline(never)]
fn not_a_property<'a>(name: &'a str, span: Span, env: &Env<'a>) -> Evaluated<'a> {
    match library::constant(env.library, name) {
        Some(c) => match c.value {
            ConstValue::Long(l) => Ok(Value::Long(l)),
            ConstValue::Str(s) => Ok(Value::Str(Cow::Borrowed(s))),
            ConstValue::Needs(need) => Err(
                Diagnostic::error(
                    EL_NEEDS_CONTEXT,
                    span,
                    format!(
                        "{name} needs {}; it has no value on its own",
                        need.describe()
                    ),
                )
                .with_help(format!("give it a value with --var {name}=VALUE")),
            ),
        },
        None => Err(
            Diagnostic::error(
                EL_UNKNOWN_VARIABLE,
                span,
                format!("variable [{name}] cannot be resolved"),
            )
            .with_help(format!(
                "define `{name}` as a job property (coordc eval: --var {name}=VALUE; coordc dryrun: -D {name}=VALUE)"
            )),
        ),
    }
}

fn apply_binary(op: BinaryOp, a: &Value, b: &Value) -> Result<Value<'static>, String> {
    let arith = |o| arithmetic(o, a, b);
    let rel = |o| relational(o, a, b).map(Value::Bool);
    match op {
        BinaryOp::Add => arith(ArithOp::Add),
        BinaryOp::Sub => arith(ArithOp::Sub),
        BinaryOp::Mul => arith(ArithOp::Mul),
        BinaryOp::Div => arith(ArithOp::Div),
        BinaryOp::Mod => arith(ArithOp::Mod),
        BinaryOp::Lt => rel(RelOp::Lt),
        BinaryOp::Gt => rel(RelOp::Gt),
        BinaryOp::Le => rel(RelOp::Le),
        BinaryOp::Ge => rel(RelOp::Ge),
        BinaryOp::Eq => equals(a, b).map(Value::Bool),
        BinaryOp::Ne => equals(a, b).map(|e| Value::Bool(!e)),
        BinaryOp::And | BinaryOp::Or => {
            unreachable!("short-circuit operators are handled by the caller")
        }
    }
}

/// commons-el coerces each argument to the Java parameter type before the call.
fn coerce_arg<'a>(v: Value<'a>, ty: Ty) -> Result<Value<'a>, String> {
    Ok(match ty {
        Ty::String => match v {
            Value::Str(_) => v,
            other => Value::Str(Cow::Owned(other.to_text().into_owned())),
        },
        Ty::Int => Value::Long(v.to_int()? as i64),
        Ty::Long => Value::Long(v.to_long()?),
        Ty::Boolean => Value::Bool(v.to_bool()?),
        Ty::Object | Ty::Map => v,
    })
}
