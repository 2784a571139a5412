//! `mancala merge`: the `--json` summaries of the parts of a run (`simulate --shard I/N`) added up into the
//! summary the whole run would have printed.

use std::path::PathBuf;

use serde_json::{Map, Value};

use super::{Failure, Status};

/// Add up the JSON summaries of the parts of a run of `simulate --shard I/N --json`.
///
/// Every part must come from the same run (game, variant, seats, position, seed, number of games, N) and
/// each part must be there once: the result is then the summary one `simulate --json` of the whole run
/// prints (games, wins, draws, plies, end reasons, actions, how often each rule fired), with `threads` the
/// most any part used. It is printed as JSON.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  for i in 1 2 3 4; do mancala simulate kalah --games 100000 --shard $i/4 --json > part-$i.json; done
  mancala merge part-*.json --json

On a cluster, each task of a Slurm job array or a Kubernetes Indexed Job plays one part (see docs/batch.md).")]
pub struct Args {
    /// The parts' JSON summaries, one file each.
    #[arg(value_name = "PART.json", required = true)]
    pub files: Vec<PathBuf>,
    /// Print JSON (the only form merge prints; accepted for scripts that pass it to every command).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> Result<Status, Failure> {
    let mut parts = Vec::new();
    for path in &args.files {
        let bytes = mancala::io::read_limited(path, 64 << 20)
            .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?;
        let value: Value = serde_json::from_slice(&bytes).map_err(|e| {
            Failure::usage(format!("{}: not a JSON summary of `simulate --json` ({e})", path.display()))
        })?;
        parts.push((path.display().to_string(), value));
    }
    let merged = merge(&parts).map_err(Failure::usage)?;
    let text = serde_json::to_string_pretty(&merged).map_err(|e| Failure::usage(format!("cannot write JSON: {e}")))?;
    println!("{text}");
    Ok(Status::Ok)
}

/// How each field of a summary is added up.
enum Rule {
    /// The same in every part.
    Same,
    /// Summed (a number, or an array of numbers element by element); absent counts as zero.
    Sum,
    /// The largest.
    Max,
    /// An object of counts, summed key by key.
    Counts,
    /// Worked out again from the sums.
    Derived,
}

fn rule_of(field: &str) -> Option<Rule> {
    Some(match field {
        "game" | "variant" | "players" | "seats" | "position" | "seed" => Rule::Same,
        "games" | "wins" | "shared" | "draws" | "lost" | "total_plies" | "capped" | "total_captures" | "abandoned"
        | "total_rounds" | "round_wins" | "round_draws" => Rule::Sum,
        "max_plies" | "max_rounds" | "threads" => Rule::Max,
        "reasons" | "actions" => Rule::Counts,
        "mean_plies" | "mean_captures" | "rules" | "shard" => Rule::Derived,
        _ => return None,
    })
}

/// The parts added up, or why they cannot be.
pub fn merge(parts: &[(String, Value)]) -> Result<Value, String> {
    let objects: Vec<(&str, &Map<String, Value>)> = parts
        .iter()
        .map(|(name, v)| v.as_object().map(|o| (name.as_str(), o)).ok_or_else(|| format!("{name}: not a JSON object")))
        .collect::<Result<_, _>>()?;
    check_shards(&objects)?;
    let mut out = Map::new();
    let fields: std::collections::BTreeSet<&String> = objects.iter().flat_map(|(_, o)| o.keys()).collect();
    for field in fields {
        let rule = rule_of(field).ok_or_else(|| format!("`{field}`: a field merge does not know how to add up"))?;
        let values: Vec<(&str, Option<&Value>)> = objects.iter().map(|(n, o)| (*n, o.get(field.as_str()))).collect();
        let merged = match rule {
            Rule::Same => same(field, &values)?,
            Rule::Sum => sum(field, &values)?,
            Rule::Max => values.iter().filter_map(|(_, v)| v.and_then(Value::as_u64)).max().map(Value::from),
            Rule::Counts => counts(field, &values)?,
            Rule::Derived => None,
        };
        if let Some(v) = merged {
            out.insert(field.clone(), v);
        }
    }
    let games = out.get("games").and_then(Value::as_u64).unwrap_or(0);
    let mean = |total: &str| {
        let t = out.get(total).and_then(Value::as_u64).unwrap_or(0);
        if games == 0 {
            0.0
        } else {
            t as f64 / games as f64
        }
    };
    let (plies, captures) = (mean("total_plies"), mean("total_captures"));
    out.insert("mean_plies".into(), Value::from(plies));
    out.insert("mean_captures".into(), Value::from(captures));
    if let Some(rules) = merge_rules(&objects)? {
        out.insert("rules".into(), rules);
    }
    Ok(Value::Object(out))
}

/// Every part names the same run, and each of its N parts is there once.
fn check_shards(objects: &[(&str, &Map<String, Value>)]) -> Result<(), String> {
    let mut seen = Vec::new();
    let mut run = None;
    for (name, o) in objects {
        let shard = o.get("shard").ok_or_else(|| {
            format!(
                "{name}: not a part of a run (it has no `shard`: play the parts with `simulate --shard I/N --json`)"
            )
        })?;
        let field =
            |k: &str| shard.get(k).and_then(Value::as_u64).ok_or_else(|| format!("{name}: `shard.{k}` is missing"));
        let (index, count, games) = (field("index")?, field("count")?, field("run_games")?);
        match run {
            None => run = Some((count, games)),
            Some(r) if r != (count, games) => return Err(format!(
                "{name}: a part of another run ({games} games in {count} parts, where the first file says {} in {})",
                r.1, r.0
            )),
            Some(_) => {}
        }
        if seen.contains(&index) {
            return Err(format!("{name}: part {index}/{count} is given twice"));
        }
        seen.push(index);
    }
    if let Some((count, _)) = run {
        let missing: Vec<String> = (1..=count).filter(|i| !seen.contains(i)).map(|i| format!("{i}/{count}")).collect();
        if !missing.is_empty() {
            return Err(format!("the parts {} are missing: a merge adds up every part of a run", missing.join(", ")));
        }
    }
    Ok(())
}

fn same(field: &str, values: &[(&str, Option<&Value>)]) -> Result<Option<Value>, String> {
    let (first_name, first) = values[0];
    for (name, v) in &values[1..] {
        if *v != first {
            return Err(format!("{name}: `{field}` differs from {first_name}'s: the parts are of different runs"));
        }
    }
    Ok(first.cloned())
}

fn sum(field: &str, values: &[(&str, Option<&Value>)]) -> Result<Option<Value>, String> {
    let mut total: Option<Value> = None;
    for (name, v) in values {
        let Some(v) = v else { continue };
        let bad = || format!("{name}: `{field}` is not a count");
        total = Some(match (total, v) {
            (None, v) => (*v).clone(),
            (Some(Value::Number(a)), Value::Number(b)) => {
                Value::from(a.as_u64().ok_or_else(bad)? + b.as_u64().ok_or_else(bad)?)
            }
            (Some(Value::Array(a)), Value::Array(b)) if a.len() == b.len() => Value::Array(
                a.iter()
                    .zip(b)
                    .map(|(x, y)| Ok(Value::from(x.as_u64().ok_or_else(bad)? + y.as_u64().ok_or_else(bad)?)))
                    .collect::<Result<_, String>>()?,
            ),
            _ => return Err(bad()),
        });
    }
    Ok(total)
}

fn counts(field: &str, values: &[(&str, Option<&Value>)]) -> Result<Option<Value>, String> {
    let mut total = Map::new();
    for (name, v) in values {
        let Some(v) = v else { continue };
        let o = v.as_object().ok_or_else(|| format!("{name}: `{field}` is not an object of counts"))?;
        for (k, n) in o {
            let n = n.as_u64().ok_or_else(|| format!("{name}: `{field}.{k}` is not a count"))?;
            let t = total.get(k).and_then(Value::as_u64).unwrap_or(0);
            total.insert(k.clone(), Value::from(t + n));
        }
    }
    Ok(Some(Value::Object(total)))
}

/// The rules' rows: the same rules in every part, their `fired` and `ended` summed.
fn merge_rules(objects: &[(&str, &Map<String, Value>)]) -> Result<Option<Value>, String> {
    let with_rules = objects.iter().filter(|(_, o)| o.contains_key("rules")).count();
    if with_rules != 0 && with_rules != objects.len() {
        return Err("some parts count the rules that fired and others do not (--no-rules in some only?)".into());
    }
    let mut rows: Option<Vec<Value>> = None;
    for (name, o) in objects {
        let Some(theirs) = o.get("rules") else { continue };
        let theirs = theirs.as_array().ok_or_else(|| format!("{name}: `rules` is not a list"))?;
        let Some(mine) = rows.as_mut() else {
            rows = Some(theirs.clone());
            continue;
        };
        if mine.len() != theirs.len() {
            return Err(format!("{name}: its rules differ from the first part's (another rule file?)"));
        }
        for (m, t) in mine.iter_mut().zip(theirs) {
            let (Some(m), Some(t)) = (m.as_object_mut(), t.as_object()) else {
                return Err(format!("{name}: a rule's row is not an object"));
            };
            if m.get("line") != t.get("line") || m.get("text") != t.get("text") {
                return Err(format!("{name}: its rules differ from the first part's (another rule file?)"));
            }
            for k in ["fired", "ended"] {
                let n = m.get(k).and_then(Value::as_u64).unwrap_or(0) + t.get(k).and_then(Value::as_u64).unwrap_or(0);
                m.insert(k.into(), Value::from(n));
            }
        }
    }
    Ok(rows.map(Value::Array))
}
