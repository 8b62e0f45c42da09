// Package batch runs one model over many files: it finds the inputs,
// spreads them over a pool of workers, writes one record per input, and
// survives being interrupted or killed. `asr transcribe DIR` and
// `caption DIR` are built on it.
//
// # Inputs
//
// Collect expands command-line arguments and an optional list of paths
// (a file or standard input, one per line or NUL-separated) into a list
// of Inputs. Directories are walked recursively (CollectOptions.Flat
// stops at the first level) in lexical order, following symbolic links;
// a link that leads back to a directory being walked is a loop and is
// skipped, as is a second way into a directory already walked. Files in
// walks are selected by content, through CollectOptions.Accept, which
// sees the name and the first SniffLen bytes: IsAudio (audio.Sniff) and
// IsImage (the image decoders' magic numbers) also take files with a
// media extension whose bytes are wrong, so that clip.m4a or an empty
// photo.jpg is reported as a failure instead of being passed over.
// Hidden files are skipped. Files named explicitly are always taken.
//
// Each Input has a Path, which is its identity in every output (the path
// as named, or as found below a directory argument: "corpus/spk1/a.wav"),
// and a Root, the directory argument it was found under (the file's own
// directory for a file argument, "." or "/" for a list entry). Rel, the
// path below Root, is what sharding hashes and what an output directory
// mirrors. A rerun that resumes an output must name the inputs the same
// way (from the same directory), since records are matched by Path.
//
// # Sharding
//
// Shard{Index: i, Count: n} (ParseShard("i/n"), 0 ≤ i < n) keeps the
// inputs whose ⌊FNV-1a-64(Rel)·n / 2⁶⁴⌋ is i: a stable partition, the same on
// every machine and for any list order, so n machines (GNU parallel, a
// Kubernetes Indexed Job, a Slurm job array; docs/batch.md has recipes) can
// split a corpus with no coordination and Merge their outputs.
//
// # Running
//
// Run hands the inputs to Options.Jobs workers (default: every core).
// The model is loaded once by the caller and shared read-only; a Factory
// gives each worker its own Processor with its own scratch state.
// Records are written as inputs finish, or in input order with
// Options.Ordered (finished results wait for the ones before them; at
// most 4 per worker are held, so memory stays flat however many inputs
// there are). A progress bar (inputs done of the total, rate, time left)
// is drawn on Stderr when it is a terminal, unless Quiet; a summary line
// ends the run: done, failed, skipped, wall time, throughput.
//
// # Outputs
//
// A combined output (Options.Output) has one Record per input, in JSONL,
// TSV or CSV: the path, the flat text, the structured result (JSONL
// only), the error if it failed, the model id, the time spent and the
// start time. Sidecars (Options.Sidecar: txt, json, srt, vtt) put each
// result in a file of its own, named after the input with its extension
// replaced, next to it or below Options.OutDir in a mirror of the input
// tree (SidecarPath). A sidecar never replaces an input, never lands
// outside OutDir (symbolic links included: writes go through an
// os.Root), and is written to a temporary file renamed into place.
// Existing outputs are never replaced unless Options.Overwrite.
//
// # Resume and crashes
//
// A record is appended with a single write of the whole line, and the
// file is synced every Options.SyncEvery, so a process killed at any
// moment leaves complete records and at most one incomplete last line.
// Options.Resume reads the output back: the incomplete line is cut off,
// inputs with a successful record are skipped, and failure records are
// dropped (the file is rewritten atomically) so those inputs are tried
// again; duplicates cannot arise. A run killed with SIGKILL any number of
// times and resumed until it completes ends with exactly one complete
// record per input. Only one process may write an output at a time (an
// advisory lock, where the platform has flock).
//
// # Interruption and exit status
//
// WithSignals turns the first SIGINT or SIGTERM into "take no new
// inputs, finish those in flight, write, stop" and the second into
// "abandon those in flight" (Options.Abort); abandoned inputs get no
// record and are done on resume. Run then returns ErrInterrupted, which
// a command maps to exit status ExitInterrupted (130). Per-input
// failures are recorded with their reason, printed at the end, and make
// Run return ErrFailed (exit status 1); Options.FailFast stops at the
// first. Errors that concern the whole batch (options, an output that
// exists or cannot be written) are returned as such.
//
// # Merging
//
// Merge joins the outputs of the shards into one file sorted by path,
// refusing duplicates (ErrDuplicate) and incomplete outputs
// (ErrIncomplete).
package batch
