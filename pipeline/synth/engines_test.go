package synth

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/attend-go/attend/audio"
)

func TestParseEspeakVoices(t *testing.T) {
	table := `Pty Language       Age/Gender VoiceName          File                 Other Languages
 2  en-gb           --/M      English_(Great_Britain) gmw/en               (en 2)
 3  en-uk           --/M      english-mb-en1     mb/mb-en1            (en-gb 3)(en 2)
 2  en-us           --/M      English_(America)  gmw/en-US            (en 3)
 5  en-us           --/F      us-mbrola-1        mb/mb-us1            (en 8)
 5  variant         --/M      Storm              !v/Storm             (en-us 5)
 9  en              --/F      en-german-1        mb/mb-de1-en
 5  en-029          --/M      English_(Caribbean) gmw/en-029           (en 10)
`
	accents, mbrola := parseEspeakVoices([]byte(table))
	if want := []string{"en-gb", "en-us", "en-029"}; !reflect.DeepEqual(accents, want) {
		t.Errorf("accents = %q, want %q", accents, want)
	}
	if want := []string{"mb-en1", "mb-us1", "mb-de1-en"}; !reflect.DeepEqual(mbrola, want) {
		t.Errorf("mbrola = %q, want %q", mbrola, want)
	}
	variants := parseEspeakVariants([]byte(`Pty Language       Age/Gender VoiceName          File                 Other Languages
 5  variant         --/M      Adam               !v/adam              
 5  variant         --/F      female2            !v/f2                
 5  variant         --/M      klatt              !v/klatt             
`))
	if want := []string{"adam", "f2", "klatt"}; !reflect.DeepEqual(variants, want) {
		t.Errorf("variants = %q, want %q", variants, want)
	}
}

func TestParseFliteVoices(t *testing.T) {
	got := parseFliteVoices("Voices available: kal awb_time kal16 awb rms slt \n")
	if want := []string{"kal", "kal16", "awb", "rms", "slt"}; !reflect.DeepEqual(got, want) {
		t.Errorf("voices = %q, want %q", got, want)
	}
	if got := parseFliteVoices("garbage"); got != nil {
		t.Errorf("voices of garbage = %q", got)
	}
}

func TestParseFestivalList(t *testing.T) {
	got := parseFestivalList("festival banner\n(cmu_us_slt_arctic_hts ked_diphone kal_diphone)\n")
	if want := []string{"cmu_us_slt_arctic_hts", "ked_diphone", "kal_diphone"}; !reflect.DeepEqual(got, want) {
		t.Errorf("voices = %q, want %q", got, want)
	}
	if got := parseFestivalList("(evil\"(system) ok)"); !reflect.DeepEqual(got, []string{"ok"}) {
		t.Errorf("voices = %q, want only the well-formed name", got)
	}
}

func TestCommandErrors(t *testing.T) {
	ctx := context.Background()
	if _, err := command(ctx, nil, "no-such-tts-program-here"); !errors.Is(err, ErrNotInstalled) {
		t.Errorf("missing program: %v, want ErrNotInstalled", err)
	}
	if !hasProgram("sh") {
		t.Skip("no sh on PATH: cannot run the exit-status checks")
	}
	tests := []struct {
		name   string
		script string
		want   string
	}{
		{"exit status", "echo boom >&2; exit 3", "sh failed: boom"},
		{"error printed with status 0", "echo 'SIOD ERROR: unbound variable' >&2", "SIOD ERROR"},
		{"warning only", "echo 'note: slow' >&2; echo out", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := command(ctx, nil, "sh", "-c", tc.script)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("%v", err)
			case tc.want == "" && string(out) != "out\n":
				t.Errorf("stdout %q", out)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestEngines renders one sentence with the first voices of every
// installed engine through the whole chain, and checks what comes back.
func TestEngines(t *testing.T) {
	for _, e := range Engines() {
		t.Run(e.Name(), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			voices, err := e.Voices(ctx)
			if errors.Is(err, ErrNotInstalled) {
				t.Skipf("%s is not installed (Debian package %s): %v", e.Name(), e.Name(), err)
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(voices) == 0 {
				t.Fatalf("%s is installed but has no voices", e.Name())
			}
			t.Logf("%d voices: %s …", len(voices), strings.Join(voices[:min(len(voices), 6)], " "))
			dir := t.TempDir()
			text := "the quick brown fox jumps over the lazy dog"
			var lens []int
			for _, tempo := range []float64{1, 1.5} {
				raw := filepath.Join(dir, "raw.wav")
				if err := e.Render(ctx, voices[0], text, tempo, raw); err != nil {
					t.Fatal(err)
				}
				f, err := os.Open(raw)
				if err != nil {
					t.Fatal(err)
				}
				sig, err := audio.Decode(f)
				f.Close()
				if err != nil {
					t.Fatal(err)
				}
				x, err := Augment(sig, Plan{Pitch: 1.05, Peak: -1, Noise: audio.WhiteNoise, SNR: 20, Seed: 1})
				if err != nil {
					t.Fatal(err)
				}
				secs := float64(len(x)) / SampleRate
				t.Logf("%s at tempo %g: %d Hz → %.2f s", voices[0], tempo, sig.Rate, secs)
				if secs < 1 || secs > 6 {
					t.Errorf("%s at tempo %g: %.2f s for nine words", voices[0], tempo, secs)
				}
				lens = append(lens, len(x))
			}
			if ratio := float64(lens[0]) / float64(lens[1]); ratio < 1.25 || ratio > 1.75 {
				t.Errorf("tempo 1.5 made the clip %.2f× shorter, want about 1.5×", ratio)
			}
		})
	}
}

// TestRunEspeak renders two sentences end to end with espeak-ng.
func TestRunEspeak(t *testing.T) {
	ctx := context.Background()
	found := Discover(ctx, []Engine{Espeak{}}, nil)
	if errors.Is(found[0].Err, ErrNotInstalled) {
		t.Skip("espeak-ng is not installed (Debian package espeak-ng)")
	}
	if found[0].Err != nil {
		t.Fatal(found[0].Err)
	}
	dir := t.TempDir()
	sentences := []Sentence{
		{Text: "Please bring the red book.", Norm: "please bring the red book", Source: "a:1"},
		{Text: "It rained all night.", Norm: "it rained all night", Source: "a:2"},
	}
	sum, err := Run(ctx, &Job{Dir: dir, Sentences: sentences, Voices: found, Workers: 2,
		Options: Options{Seed: 1, Reverb: 1, Noise: 1, Telephone: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Clips != 2 || len(sum.Failures) != 0 {
		t.Fatalf("summary %+v", sum)
	}
	if sum.Seconds < 1.5 || sum.Seconds > 8 {
		t.Errorf("%.2f s of audio for two short sentences", sum.Seconds)
	}
	manifest, _ := os.ReadFile(sum.Manifest)
	for i, s := range sentences {
		row := clipName(i) + "\t" + s.Norm + "\tespeak-ng/"
		if !strings.Contains(string(manifest), row) {
			t.Errorf("manifest lacks a row starting %q:\n%s", row, manifest)
		}
	}
}
