package synth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/attend-go/attend/audio"
)

// ErrSettingsChanged means an output directory holds clips rendered with
// other sentences, voices or options, which a resumed run would mislabel.
var ErrSettingsChanged = errors.New("synth: output directory was rendered with other settings")

// A Job renders sentences into a directory:
//
//	Dir/manifest.tsv        path<TAB>text<TAB>speaker, one row per clip, in sentence order
//	Dir/wav/000000.wav      clip of sentence 0: 16 kHz mono 16-bit PCM
//	Dir/settings.json       sentences (hash), voices and options of the clips
//
// A clip is named by its sentence's index, so running the same job again
// renders only the clips that are missing (after an interruption, say)
// and rewrites the manifest. A directory whose settings.json differs from
// the job's is refused with ErrSettingsChanged.
type Job struct {
	Dir       string
	Sentences []Sentence
	Voices    []Found // from Discover; engines without voices are ignored
	Options   Options
	Workers   int       // clips rendered at once (0 means runtime.NumCPU())
	Log       io.Writer // progress lines and per-clip failures (nil discards)
	// Every is the interval between progress lines (0 means 10 s).
	Every time.Duration
}

// Summary is what a run produced.
type Summary struct {
	Manifest string         `json:"manifest"`      // path of the manifest written
	Clips    int            `json:"clips"`         // rows in the manifest
	Rendered int            `json:"rendered"`      // clips rendered by this run
	Reused   int            `json:"reused"`        // clips found from an earlier run
	Failures []string       `json:"failures"`      // "source: error" for each sentence that failed
	Seconds  float64        `json:"audio_seconds"` // audio in the manifest
	PerVoice map[string]int `json:"per_voice"`     // clips per speaker ("engine/voice")
}

// result is one sentence's outcome.
type result struct {
	ok, reused bool
	seconds    float64
	err        error
}

// Run renders the job. Sentences that fail (an engine error, silence) are
// listed in the summary and left out of the manifest; Run fails only when
// the job is invalid, the directory cannot be written, or ctx is
// cancelled, in which case the manifest still lists the clips done.
func Run(ctx context.Context, j *Job) (*Summary, error) {
	if j.Dir == "" {
		return nil, errors.New("synth: no output directory")
	}
	if err := j.Options.Validate(); err != nil {
		return nil, err
	}
	voices := usable(j.Voices)
	if len(voices) == 0 {
		return nil, ErrNoEngine
	}
	if len(j.Sentences) == 0 {
		return nil, errors.New("synth: no sentences to render")
	}
	if err := os.MkdirAll(filepath.Join(j.Dir, "wav"), 0o755); err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	if err := claimDir(j.Dir, newSettings(j.Sentences, voices, j.Options)); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(j.Dir, ".render-")
	if err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	defer os.RemoveAll(tmp)

	plans := make([]Plan, len(j.Sentences))
	for i := range plans {
		plans[i] = NewPlan(i, voices, &j.Options)
	}
	engines := map[string]Engine{}
	for _, f := range voices {
		engines[f.Engine.Name()] = f.Engine
	}
	results := make([]result, len(plans))
	prog := newProgress(j.Log, len(plans), j.Every)
	workers := j.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, len(plans)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results[i] = renderClip(ctx, j.Dir, tmp, engines, j.Sentences[i], plans[i])
				prog.add(results[i], j.Sentences[i].Source)
			}
		}()
	}
feed:
	for i := range plans {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()

	sum := &Summary{Manifest: filepath.Join(j.Dir, "manifest.tsv"), PerVoice: map[string]int{}}
	var entries []Entry
	for i, r := range results {
		switch {
		case r.ok:
			entries = append(entries, Entry{Path: clipName(i), Text: j.Sentences[i].Norm, Speaker: plans[i].Voice.String()})
			sum.Seconds += r.seconds
			sum.PerVoice[plans[i].Voice.String()]++
			if r.reused {
				sum.Reused++
			} else {
				sum.Rendered++
			}
		case r.err != nil && !errors.Is(r.err, context.Canceled) && !errors.Is(r.err, context.DeadlineExceeded):
			sum.Failures = append(sum.Failures, fmt.Sprintf("%s: %v", j.Sentences[i].Source, r.err))
		}
	}
	sum.Clips = len(entries)
	err = writeFileAtomic(sum.Manifest, func(w io.Writer) error { return WriteManifest(w, entries) })
	if err != nil {
		return sum, fmt.Errorf("synth: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return sum, err
	}
	return sum, nil
}

// clipName is the manifest path of sentence i's clip.
func clipName(i int) string { return fmt.Sprintf("wav/%06d.wav", i) }

// renderClip renders one sentence into Dir/clipName(i), or reuses the clip
// a previous run left there.
func renderClip(ctx context.Context, dir, tmp string, engines map[string]Engine, s Sentence, p Plan) result {
	if ctx.Err() != nil {
		return result{err: ctx.Err()}
	}
	path := filepath.Join(dir, clipName(p.Index))
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() && fi.Size() > wavHeaderSize {
		return result{ok: true, reused: true, seconds: wavSeconds(fi.Size())}
	}
	raw := filepath.Join(tmp, fmt.Sprintf("%06d.wav", p.Index))
	defer os.Remove(raw)
	if err := engines[p.Voice.Engine].Render(ctx, p.Voice.Name, s.Text, p.Tempo, raw); err != nil {
		return result{err: err}
	}
	sig, err := decodeFile(raw)
	if err != nil {
		return result{err: fmt.Errorf("%s: %w", p.Voice, err)}
	}
	x, err := Augment(sig, p)
	if err != nil {
		return result{err: fmt.Errorf("%s: %w", p.Voice, err)}
	}
	if err := writeFileAtomic(path, func(w io.Writer) error { return WriteWAV(w, x, SampleRate) }); err != nil {
		return result{err: err}
	}
	return result{ok: true, seconds: float64(len(x)) / SampleRate}
}

// decodeFile decodes an engine's WAV output.
func decodeFile(path string) (*audio.Signal, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return audio.Decode(f)
}
