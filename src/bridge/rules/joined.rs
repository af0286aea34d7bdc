//! The rules a run wants, compiled together. Compiling a query costs a scan of its grammar's
//! whole parse table besides the analysis of its patterns, so the rules of one grammar that
//! a run's files want are joined into a few queries (one per core, compiled in parallel)
//! instead of one query each. The patterns, not the rules, are spread over the queries, so
//! that one costly rule does not keep a core busy while the other waits; a file runs the
//! groups holding patterns of its rules and keeps the matches of the rules it wants. The
//! groups of the rules the last run in the project wanted can be compiled ahead, while git
//! lists the files ([`compile_ahead`]); a run then compiles only the rules no group holds. A
//! rule whose group failed to compile runs on its own query.

use std::cmp::Reverse;
use std::sync::{Mutex, PoisonError, RwLock};
use std::thread::JoinHandle;

use tree_sitter::Query;

use super::grammar::Grammar;
use super::lower;
use super::rule::Rule;

/// A rule with the grammar of a file that wants it.
pub type Wanted = (&'static Rule, Grammar);

/// Rules joined into one query for files in `grammar`.
pub struct Group {
    grammar: Grammar,
    pub query: Query,
    /// The rule each pattern (by index) comes from; `None` for a pattern turned off (its rule
    /// is held by another group, or no file of the run wants it).
    owners: Vec<Option<&'static Rule>>,
}

/// The groups compiled so far: a process runs the bridge once, and a later run (tests) adds
/// the groups of the rules none holds yet.
static GROUPS: RwLock<Vec<&'static Group>> = RwLock::new(Vec::new());

/// The groups being compiled ahead of the run ([`compile_ahead`]).
static AHEAD: Mutex<Option<JoinHandle<Vec<Group>>>> = Mutex::new(None);

impl Group {
    /// The rule pattern `pattern` comes from.
    pub fn owner(&self, pattern: usize) -> Option<&'static Rule> {
        self.owners.get(pattern).copied().flatten()
    }

    fn holds(&self, rule: &Rule) -> bool {
        self.owners.iter().flatten().any(|owner| std::ptr::eq(*owner, rule))
    }

    /// The patterns (each with its rule) as one query; `None` if it does not compile (their
    /// rules then run alone).
    fn compile(grammar: Grammar, patterns: &[(&'static Rule, String)]) -> Option<Group> {
        let mut source = String::new();
        let mut starts = Vec::with_capacity(patterns.len());
        for (_, pattern) in patterns {
            starts.push(source.len());
            source.push_str(pattern);
            source.push('\n');
        }
        let query = Query::new(&grammar.language(), &source).ok()?;
        let owners = (0..query.pattern_count())
            .map(|pattern| {
                let start = query.start_byte_for_pattern(pattern);
                let at = starts.partition_point(|begin| *begin <= start).saturating_sub(1);
                patterns.get(at).map(|(rule, _)| Some(*rule))
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Group { grammar, query, owners })
    }

    /// Turns off the patterns of the rules `keep` refuses; `false` if none is left.
    fn keep_only(&mut self, keep: impl Fn(&'static Rule) -> bool) -> bool {
        for (pattern, owner) in self.owners.iter_mut().enumerate() {
            if owner.is_some_and(|rule| !keep(rule)) {
                *owner = None;
                self.query.disable_pattern(pattern);
            }
        }
        self.owners.iter().any(Option::is_some)
    }
}

/// The top-level patterns of `rules`' queries as they compile for `grammar` (lowered), each
/// with its rule; a query that does not split is one piece.
fn patterns_of(grammar: Grammar, rules: &[&'static Rule]) -> Vec<(&'static Rule, String)> {
    let mut out = Vec::new();
    for rule in rules {
        let lowered = rule.lowered(grammar);
        match lower::patterns(&lowered) {
            Some(patterns) => out.extend(patterns.into_iter().map(|pattern| (*rule, pattern.to_owned()))),
            None => out.push((*rule, lowered)),
        }
    }
    out
}

/// What one thread compiles: a group, or an on-demand rule's own query.
enum Job {
    Group(Grammar, Vec<(&'static Rule, String)>),
    Alone(Wanted),
}

/// The groups of `wanted`, compiled in parallel: a grammar's rules split over as many groups
/// as there are cores, the largest pattern first into the smallest group; an on-demand rule
/// (`catalog::is_on_demand`) compiles its own query beside them.
fn groups_of(wanted: &[Wanted]) -> Vec<Group> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (alone, joined): (Vec<Wanted>, Vec<Wanted>) =
        wanted.iter().partition(|(rule, _)| super::catalog::is_on_demand(rule));
    let mut jobs: Vec<Job> = alone.into_iter().map(Job::Alone).collect();
    for grammar in Grammar::ALL {
        let rules: Vec<&'static Rule> = joined
            .iter()
            .filter(|(_, wanted_in)| *wanted_in == grammar)
            .map(|(rule, _)| *rule)
            .collect();
        let mut patterns = patterns_of(grammar, &rules);
        patterns.sort_by_key(|(_, pattern)| Reverse(pattern.len()));
        let mut mine: Vec<(Vec<(&'static Rule, String)>, usize)> = vec![(Vec::new(), 0); cores.min(patterns.len())];
        for (rule, pattern) in patterns {
            if let Some((members, size)) = mine.iter_mut().min_by_key(|(_, size)| *size) {
                *size += pattern.len();
                members.push((rule, pattern));
            }
        }
        jobs.extend(mine.into_iter().map(|(members, _)| Job::Group(grammar, members)));
    }
    // The largest first, so that no core is left with one at the end.
    jobs.sort_by_key(|job| match job {
        Job::Group(_, patterns) => Reverse(patterns.iter().map(|(_, pattern)| pattern.len()).sum::<usize>()),
        Job::Alone((rule, _)) => Reverse(rule.source().len()),
    });
    crate::bridge::parallel::map_heavy(&jobs, |job| match job {
        Job::Group(grammar, patterns) => Group::compile(*grammar, patterns),
        Job::Alone((rule, grammar)) => {
            rule.query(*grammar);
            None
        }
    })
    .into_iter()
    .flatten()
    .collect()
}

/// Starts compiling the groups of `likely` (what the last run in the project wanted) on a
/// thread of its own; [`compile`] takes what it made.
pub fn compile_ahead(likely: Vec<Wanted>) {
    let handle = std::thread::spawn(move || groups_of(&likely));
    let mut ahead = AHEAD.lock().unwrap_or_else(PoisonError::into_inner);
    // A run that never compiled (no code) leaves its groups to this one's end.
    *ahead = Some(handle);
}

/// Makes sure a group holds each of the `wanted` rules for files in its grammar: the groups
/// compiled ahead are taken (their patterns of rules the run does not want turned off), and
/// the rules none holds are compiled. Returns how many of `wanted` a group held before
/// (compiled ahead, or by an earlier run in the process).
pub fn compile(wanted: &[Wanted]) -> usize {
    let ahead = AHEAD.lock().unwrap_or_else(PoisonError::into_inner).take();
    let made = ahead.and_then(|handle| handle.join().ok()).unwrap_or_default();
    let is_wanted = |rule: &'static Rule, grammar: Grammar| {
        wanted
            .iter()
            .any(|(want, of)| std::ptr::eq(*want, rule) && *of == grammar)
    };
    add(made, &is_wanted);
    let missing: Vec<Wanted> = {
        let groups = GROUPS.read().unwrap_or_else(PoisonError::into_inner);
        wanted
            .iter()
            .filter(|(rule, grammar)| !held(&groups, rule, *grammar))
            .copied()
            .collect()
    };
    if !missing.is_empty() {
        add(groups_of(&missing), &is_wanted);
    }
    wanted.len() - missing.len()
}

/// Whether one of `groups` holds `rule` for files in `grammar` (an on-demand rule: whether its
/// own query is compiled).
fn held(groups: &[&'static Group], rule: &Rule, grammar: Grammar) -> bool {
    if super::catalog::is_on_demand(rule) {
        return rule.compiled(grammar);
    }
    groups.iter().any(|group| group.grammar == grammar && group.holds(rule))
}

/// Adds `made` to the process's groups, with only the patterns of wanted rules no group held
/// before (another run, in another thread, may have compiled them meanwhile: a file must not
/// run a rule twice).
fn add(made: Vec<Group>, wanted: &dyn Fn(&'static Rule, Grammar) -> bool) {
    if made.is_empty() {
        return;
    }
    let mut groups = GROUPS.write().unwrap_or_else(PoisonError::into_inner);
    let before = groups.len();
    for mut group in made {
        let grammar = group.grammar;
        if group.keep_only(|rule| wanted(rule, grammar) && !held(&groups[..before], rule, grammar)) {
            groups.push(Box::leak(Box::new(group)));
        }
    }
}

/// The groups holding some of `rules` for a file in `grammar`, and the rules none holds.
pub fn covering(grammar: Grammar, rules: &[&'static Rule]) -> (Vec<&'static Group>, Vec<&'static Rule>) {
    let all = GROUPS.read().unwrap_or_else(PoisonError::into_inner);
    let groups: Vec<&'static Group> = all
        .iter()
        .filter(|group| group.grammar == grammar && rules.iter().any(|rule| group.holds(rule)))
        .copied()
        .collect();
    let alone = rules
        .iter()
        .filter(|rule| !groups.iter().any(|group| group.holds(rule)))
        .copied()
        .collect();
    (groups, alone)
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::bridge::rules::catalog::for_source;
    use crate::bridge::rules::grammar::Parsers;
    use crate::bridge::rules::hits::{Hit, run, run_query};

    fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                files_under(&path, out);
            } else {
                out.push(path);
            }
        }
    }

    /// What a test compares of a hit: its rule, framework and captures.
    fn seen(hit: &Hit<'_>) -> (String, String, Vec<(String, usize, usize)>) {
        let captures = hit
            .captures
            .iter()
            .map(|capture| (capture.name.to_owned(), capture.range.start, capture.range.end))
            .collect();
        (hit.rule.name.to_owned(), hit.framework().to_owned(), captures)
    }

    /// Every rule on every fixture file it wants: its query lowered (`lower`) finds what the
    /// query as written finds, capture for capture.
    #[test]
    fn a_lowered_query_finds_what_the_rule_as_written_finds() {
        let mut files = Vec::new();
        files_under(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bridge"),
            &mut files,
        );
        let mut parsers = Parsers::default();
        let mut compared = 0;
        let mut written: Vec<((&str, Grammar), &'static Query)> = Vec::new();
        for path in &files {
            let (Some(grammar), Ok(text)) = (Grammar::of_path(&path.to_string_lossy()), std::fs::read_to_string(path))
            else {
                continue;
            };
            let path = path.to_string_lossy();
            let Ok(tree) = parsers.parse(grammar, &text) else {
                continue;
            };
            for rule in for_source(grammar, &path, &text) {
                let query = match written.iter().find(|(key, _)| *key == (rule.name, grammar)) {
                    Some((_, query)) => *query,
                    None => {
                        let query: &'static Query =
                            Box::leak(Box::new(Query::new(&grammar.language(), rule.source()).unwrap()));
                        written.push(((rule.name, grammar), query));
                        query
                    }
                };
                let mut lowered: Vec<_> = run(rule, grammar, &tree, &text).iter().map(seen).collect();
                let mut as_written: Vec<_> = run_query(query, &tree, &text, |_| Some(rule))
                    .iter()
                    .map(seen)
                    .collect();
                lowered.sort();
                as_written.sort();
                assert_eq!(lowered, as_written, "{} on {path}", rule.name);
                compared += lowered.len();
            }
        }
        assert!(compared > 1000, "only {compared} hits compared");
    }

    /// Every fixture project's files in each grammar: a query joining all the rules the files
    /// want finds, for each file, what each rule it wants finds on its own (and nothing of
    /// the rules it does not want).
    #[test]
    fn a_joined_query_finds_what_each_rule_finds_alone() {
        let mut files = Vec::new();
        files_under(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bridge"),
            &mut files,
        );
        let sources: Vec<(String, String)> = files
            .iter()
            .filter_map(|path| Some((path.to_string_lossy().into_owned(), std::fs::read_to_string(path).ok()?)))
            .collect();
        let mut parsers = Parsers::default();
        let mut compared = 0;
        for grammar in Grammar::ALL {
            let of_grammar: Vec<&(String, String)> = sources
                .iter()
                .filter(|(path, _)| Grammar::of_path(path) == Some(grammar))
                .collect();
            let mut wanted: Vec<&'static Rule> = Vec::new();
            for (path, text) in &of_grammar {
                for rule in for_source(grammar, path, text) {
                    if !wanted.iter().any(|have| std::ptr::eq(*have, rule)) {
                        wanted.push(rule);
                    }
                }
            }
            if wanted.len() < 2 {
                continue;
            }
            let group: &'static Group = Box::leak(Box::new(
                Group::compile(grammar, &patterns_of(grammar, &wanted)).expect("the rules join"),
            ));
            for (path, text) in of_grammar {
                let rules = for_source(grammar, path, text);
                let Ok(tree) = parsers.parse(grammar, text) else {
                    continue;
                };
                let mut alone: Vec<_> = rules
                    .iter()
                    .flat_map(|rule| run(rule, grammar, &tree, text))
                    .map(|hit| seen(&hit))
                    .collect();
                let mut together: Vec<_> = run_query(&group.query, &tree, text, |pattern| {
                    group
                        .owner(pattern)
                        .filter(|owner| rules.iter().any(|rule| std::ptr::eq(*rule, *owner)))
                })
                .iter()
                .map(seen)
                .collect();
                alone.sort();
                together.sort();
                assert_eq!(together, alone, "{path}");
                compared += alone.len();
            }
        }
        assert!(compared > 100, "only {compared} hits compared");
    }
}
