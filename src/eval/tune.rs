//! Texel tuning (docs/TUNING.md): fits the evaluation's weights ([`Weights`]) and a variant's
//! piece values to quiet positions labelled with scores (a shallow Fairy-Stockfish search,
//! tools/make-tune-positions.py), by the logistic loss between the evaluation's and the
//! label's win expectations, with a coordinate search on integer steps.

use std::process::ExitCode;
use std::sync::Arc;

use variants::Variant;

use super::params::Weights;
use super::EvalTables;
use crate::board::position::Position;

/// Centipawns per unit of the logistic curve (400 / ln 10: the Elo curve).
const SCALE: f64 = 173.7;
/// The last of every this many samples is held out to measure the fit.
const HOLD_OUT_EVERY: usize = 10;
/// Piece values start with steps of this many centipawns.
const VALUE_STEP: i32 = 8;
/// A weight starts with steps of its size divided by this.
const WEIGHT_STEP_DIVISOR: i32 = 8;
/// A weight at 0 (a term not yet fitted) starts with steps of this size.
const ZERO_WEIGHT_STEP: i32 = 4;

/// One training position: the position and its label's win expectation for the side to move.
pub struct Sample {
    pos: Position,
    target: f64,
}

/// What is fitted: the weights and every non-royal piece's (middle game, endgame) value by
/// piece id (the first pawn-like piece's middle-game value stays: it anchors the scale).
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The evaluation's weights.
    pub weights: Weights,
    /// (middle game, endgame) value of each piece of the variant, by piece id.
    pub values: Vec<(i32, i32)>,
}

/// The variant, its samples split into a training and a held-out part, and the label scale.
pub struct Tuner {
    variant: Variant,
    train: Vec<Sample>,
    held: Vec<Sample>,
}

/// The logistic win expectation of a score.
fn expectation(cp: f64) -> f64 {
    1.0 / (1.0 + (-cp / SCALE).exp())
}

/// Cross-entropy of a prediction against a target expectation, less the target's own entropy
/// (0 at a perfect fit).
fn loss_of(predicted: f64, target: f64) -> f64 {
    let p = predicted.clamp(1e-9, 1.0 - 1e-9);
    let t = target.clamp(1e-9, 1.0 - 1e-9);
    t * (t / p).ln() + (1.0 - t) * ((1.0 - t) / (1.0 - p)).ln()
}

impl Tuner {
    /// Reads `FEN;SCORE` lines (score in centipawns, side to move's view; they become win
    /// expectations in [`Tuner::fit_label_scale`]). Lines that do not parse are counted and
    /// skipped; returns the tuner and that count.
    pub fn new(variant: Variant, text: &str) -> Result<(Tuner, usize), String> {
        let start = Position::new_game(variant.clone()).map_err(|e| e.to_string())?;
        let (mut train, mut held, mut bad) = (Vec::new(), Vec::new(), 0);
        for (i, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
            let parsed = line.rsplit_once(';').and_then(|(fen, score)| {
                let score: f64 = score.trim().parse().ok()?;
                Some((start.with_fen(fen.trim()).ok()?, score))
            });
            let Some((pos, score)) = parsed else {
                bad += 1;
                continue;
            };
            let sample = Sample { pos, target: score };
            if i % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1 {
                held.push(sample);
            } else {
                train.push(sample);
            }
        }
        if train.is_empty() {
            return Err("no usable positions".to_string());
        }
        let tuner = Tuner {
            variant,
            train,
            held,
        };
        Ok((tuner, bad))
    }

    /// The fit the engine plays with now.
    pub fn current(&self) -> Fit {
        let values = self.variant.pieces.iter();
        Fit {
            weights: Weights::DEFAULT,
            values: values.map(|p| (p.value, p.value_eg)).collect(),
        }
    }

    /// Scales the labels (scores to win expectations) by the factor, among a few, that
    /// fits the current evaluation best, so that the fit keeps the engine's own centipawn
    /// scale (the search's margins are in it) and does not copy the labeller's. Returns it.
    pub fn fit_label_scale(&mut self) -> f64 {
        let tables = self.tables(&self.current());
        let scores: Vec<f64> = (self.train.iter())
            .map(|s| tables.as_ref().map_or(0, |t| t.evaluate(&s.pos)) as f64)
            .collect();
        let loss = |k: f64| {
            let sum: f64 = (self.train.iter().zip(&scores))
                .map(|(s, &e)| loss_of(expectation(e), expectation(s.target * k)))
                .sum();
            sum / scores.len() as f64
        };
        let k = (20..=300)
            .map(|i| i as f64 / 100.0)
            .min_by(|&a, &b| loss(a).total_cmp(&loss(b)))
            .unwrap_or(1.0);
        for s in self.train.iter_mut().chain(self.held.iter_mut()) {
            s.target = expectation(s.target * k);
        }
        k
    }

    /// The evaluation tables of a fit (None when the variant with its values does not start).
    fn tables(&self, fit: &Fit) -> Option<EvalTables> {
        let mut variant = self.variant.clone();
        for (p, &(mg, eg)) in variant.pieces.iter_mut().zip(&fit.values) {
            (p.value, p.value_eg) = (mg, eg);
        }
        let start = Position::new_game(variant).ok()?;
        let lay = Arc::clone(start.layout());
        Some(EvalTables::with_weights(&lay, &start, fit.weights))
    }

    /// Mean loss of a fit on the training samples (`held`: on the held-out ones).
    pub fn loss(&self, fit: &Fit, held: bool) -> f64 {
        let samples = if held { &self.held } else { &self.train };
        let Some(tables) = self.tables(fit) else {
            return f64::INFINITY;
        };
        let sum: f64 = (samples.iter())
            .map(|s| loss_of(expectation(tables.evaluate(&s.pos) as f64), s.target))
            .sum();
        sum / samples.len().max(1) as f64
    }

    /// Coordinate search from `fit`: each parameter in turn moves a step up or down while
    /// that lowers the training loss; steps halve when a pass finds nothing, down to 1.
    /// `report` hears each pass's loss. Call [`Tuner::fit_label_scale`] first.
    /// `only`: name prefixes of the parameters fitted (empty: all; `v`: the piece values
    /// alone, as for a variant other than chess, whose weights are shared by every variant);
    /// the others stay as they are.
    pub fn run(
        &self,
        mut fit: Fit,
        passes: usize,
        only: &[String],
        report: &mut dyn FnMut(usize, f64),
    ) -> Fit {
        let names: Vec<String> = (params(&mut fit.clone()).into_iter())
            .map(|(n, _)| n)
            .collect();
        let fitted: Vec<bool> = (names.iter())
            .map(|n| only.is_empty() || only.iter().any(|o| n.starts_with(o.as_str())))
            .collect();
        let mut steps: Vec<i32> = (0..names.len())
            .map(|i| initial_step(&mut fit, i))
            .collect();
        let mut best = self.loss(&fit, false);
        for pass in 0..passes {
            let mut improved = false;
            for (i, step) in steps.iter_mut().enumerate().filter(|(i, _)| fitted[*i]) {
                if let Some((f, l)) = self.try_param(&fit, i, *step, best) {
                    (fit, best, improved) = (f, l, true);
                }
            }
            report(pass, best);
            if !improved {
                if steps.iter().zip(&fitted).all(|(&s, &f)| s == 1 || !f) {
                    break;
                }
                steps.iter_mut().for_each(|s| *s = (*s / 2).max(1));
            }
        }
        fit
    }

    /// Parameter `i` moved up, or else down, by `step` while the loss falls; None when
    /// neither direction beats `best`.
    fn try_param(&self, fit: &Fit, i: usize, step: i32, best: f64) -> Option<(Fit, f64)> {
        // Every parameter is a magnitude: a sign change would turn a term's meaning round.
        let moved = |f: &Fit, dir: i32| {
            let mut next = f.clone();
            let mut all = params(&mut next);
            let p = &mut all[i].1;
            (**p + dir >= 0).then(|| **p += dir)?;
            Some(next)
        };
        for dir in [step, -step] {
            let Some(mut trial) = moved(fit, dir) else {
                continue;
            };
            let mut l = self.loss(&trial, false);
            if l >= best {
                continue;
            }
            loop {
                let Some(next) = moved(&trial, dir) else {
                    return Some((trial, l));
                };
                let nl = self.loss(&next, false);
                if nl >= l {
                    return Some((trial, l));
                }
                (trial, l) = (next, nl);
            }
        }
        None
    }
}

/// Every fitted parameter by name: the weights, then the piece values (`v<id>mg`,
/// `v<id>eg`) but the anchor's middle-game value and royal pieces' values.
fn params(fit: &mut Fit) -> Vec<(String, &mut i32)> {
    let mut out: Vec<(String, &mut i32)> = (fit.weights.named_mut().into_iter())
        .map(|(n, v)| (n.to_string(), v))
        .collect();
    let anchor = anchor(&fit.values);
    for (id, (mg, eg)) in fit.values.iter_mut().enumerate() {
        if Some(id) != anchor {
            out.push((format!("v{id}mg"), mg));
        }
        out.push((format!("v{id}eg"), eg));
    }
    out
}

/// The piece whose middle-game value is held: the first worth exactly 100 (the pawn).
fn anchor(values: &[(i32, i32)]) -> Option<usize> {
    values.iter().position(|&(mg, _)| mg == 100)
}

/// The first step of parameter `i`: [`VALUE_STEP`] for piece values, else a share of the
/// weight (at least 1).
fn initial_step(fit: &mut Fit, i: usize) -> i32 {
    let weights = fit.weights.named_mut().len();
    let v = *params(fit)[i].1;
    if i >= weights {
        VALUE_STEP
    } else if v == 0 {
        ZERO_WEIGHT_STEP
    } else {
        (v.abs() / WEIGHT_STEP_DIVISOR).max(1)
    }
}

/// `locust tune`: fits the variant's weights and piece values to the positions of `file`
/// and prints the training and held-out losses, then the fitted values as data
/// (`only`: the name prefixes of the parameters fitted, see [`Tuner::run`]).
pub fn run_cli(
    all: &[Variant],
    name: &str,
    file: &std::path::Path,
    passes: usize,
    only: &[String],
) -> ExitCode {
    let Some(variant) = variants::find(all, name) else {
        eprintln!("unknown variant {name}");
        return ExitCode::FAILURE;
    };
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{}: {e}", file.display());
            return ExitCode::FAILURE;
        }
    };
    let (mut tuner, bad) = match Tuner::new(variant.clone(), &text) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{}: {e}", file.display());
            return ExitCode::FAILURE;
        }
    };
    let k = tuner.fit_label_scale();
    let before = tuner.current();
    println!(
        "positions {} (held out {}, skipped {bad}), label scale {k:.2}",
        tuner.train.len() + tuner.held.len(),
        tuner.held.len()
    );
    let losses = |f: &Fit| (tuner.loss(f, false), tuner.loss(f, true));
    println!(
        "before: loss {:.6} held-out {:.6}",
        losses(&before).0,
        losses(&before).1
    );
    let fit = tuner.run(before.clone(), passes, only, &mut |p, l| {
        println!("pass {}: loss {l:.6}", p + 1)
    });
    println!(
        "after: loss {:.6} held-out {:.6}",
        losses(&fit).0,
        losses(&fit).1
    );
    print_fit(variant, &fit);
    ExitCode::SUCCESS
}

/// The fitted weights as params.rs lines and the piece values as variant-file keys.
fn print_fit(variant: &Variant, fit: &Fit) {
    for (name, v) in fit.weights.clone().named_mut() {
        println!("    {name} = {v};");
    }
    let letter = |p: &variants::rules::PieceType| {
        let plus = if p.plus_form { "+" } else { "" };
        format!("{plus}{}", p.letter.to_ascii_lowercase())
    };
    let pieces = variant.pieces.iter().zip(&fit.values);
    let pieces: Vec<_> = pieces.filter(|(p, _)| !p.royal).collect();
    // Fairy-Stockfish's scales (pawn = 126 in the middle game, 208 in the endgame), rounded
    // up so that the loader's conversion back to centipawns gives the fitted values. Its keys
    // rather than Locust's `pieceValue`: a child section inherits them piece by piece.
    let keys = |phase: fn(&(i32, i32)) -> i32, scale: i32| -> String {
        (pieces.iter())
            .map(|(p, v)| format!("{}:{}", letter(p), (phase(v) * scale + 99) / 100))
            .collect::<Vec<_>>()
            .join(" ")
    };
    println!("pieceValueMg = {}", keys(|v| v.0, 126));
    println!("pieceValueEg = {}", keys(|v| v.1, 208));
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    /// Chess positions with knights, bishops and pawns in several balances.
    const FENS: &[&str] = &[
        "4k3/8/8/8/8/8/4P3/1N2K3 w - - 0 1",
        "1n2k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1",
        "4k3/pp6/8/8/8/8/8/1N2K3 w - - 0 1",
        "1n2k3/8/8/8/8/8/PP6/4K3 b - - 0 1",
        "4k3/ppp5/8/8/8/8/8/2B1K3 w - - 0 1",
        "2b1k3/8/8/8/8/8/PPP5/4K3 b - - 0 1",
        "1n2k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
        "4k3/8/8/8/8/8/PPP5/1N2K3 w - - 0 1",
    ];

    /// The tuner lowers the loss on positions labelled by an evaluation whose knight is
    /// worth 420 instead of its default, and moves the knight's value towards it.
    #[test]
    fn the_fit_lowers_the_loss_and_finds_the_labelling_knight() {
        let variant = variants::builtin("chess").unwrap().unwrap();
        let knight = (variant.pieces.iter().position(|p| p.letter == 'N')).unwrap();
        let (probe, _) = Tuner::new(variant.clone(), &format!("{};0", FENS[0])).unwrap();
        let mut truth = probe.current();
        truth.values[knight] = (420, 420);
        let tables = probe.tables(&truth).unwrap();
        let start = Position::new_game(variant.clone()).unwrap();
        let text: String = (FENS.iter())
            .map(|f| {
                let score = tables.evaluate(&start.with_fen(f).unwrap());
                format!("{f};{score}\n")
            })
            .collect();
        let (mut tuner, bad) = Tuner::new(variant, &text).unwrap();
        assert_eq!(bad, 0);
        tuner.train.append(&mut tuner.held);
        for s in tuner.train.iter_mut() {
            s.target = expectation(s.target);
        }
        let before = tuner.current();
        let fitted = tuner.run(before.clone(), 4, &[], &mut |_, _| {});
        assert!(tuner.loss(&fitted, false) < tuner.loss(&before, false) * 0.5);
        // Few of these positions have enough material for a middle game: the endgame value
        // carries the difference.
        let (old, new) = (before.values[knight].1, fitted.values[knight].1);
        assert!(new > old + 40, "knight {old} -> {new}");
    }
}
