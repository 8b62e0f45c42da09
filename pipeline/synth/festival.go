package synth

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Festival is the Festival speech synthesis system, rendering through its
// text2wave script. Its voices are those "(voice.list)" names whose
// language is English once selected: with Debian's festvox-kallpc16k,
// festvox-kdlpc16k and festvox-us-slt-hts that is kal_diphone,
// ked_diphone and cmu_us_slt_arctic_hts.
//
// Tempo sets the parameter Duration_Stretch to 1/tempo, which diphone and
// cluster-unit voices honour; HTS voices (name ending in "_hts") ignore it
// and get the hts_engine speed option "-r tempo" instead.
type Festival struct{}

// Name returns "festival".
func (Festival) Name() string { return "festival" }

// festivalProbe selects each voice in one festival process and prints its
// language; a voice whose function is unbound leaves the language unknown.
const festivalProbe = `(Parameter.set 'Language 'unknown) (voice_%[1]s) (format t "VOICE %[1]s %%s\n" (Param.get 'Language))
`

// Voices lists the English voices.
func (Festival) Voices(ctx context.Context) ([]string, error) {
	if !hasProgram("text2wave") {
		return nil, fmt.Errorf("synth: festival: %w: text2wave not found on PATH", ErrNotInstalled)
	}
	out, err := command(ctx, strings.NewReader("(print (voice.list))\n"), "festival", "--pipe")
	if err != nil {
		return nil, fmt.Errorf("synth: festival: %w", err)
	}
	listed := parseFestivalList(string(out))
	if len(listed) == 0 {
		return nil, nil
	}
	var script strings.Builder
	for _, v := range listed {
		fmt.Fprintf(&script, festivalProbe, v)
	}
	// Voices that fail to load print SIOD errors; the languages printed
	// tell which loaded, so errors on stderr are not fatal here.
	out, _, _ = commandOutput(ctx, strings.NewReader(script.String()), "festival", "--pipe")
	var voices []string
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 && f[0] == "VOICE" && strings.Contains(strings.ToLower(f[2]), "english") && slices.Contains(listed, f[1]) {
			voices = append(voices, f[1])
		}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return voices, nil
}

// festivalName matches the voice names festival can select.
var festivalName = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// parseFestivalList reads the printed list "(cmu_us_slt_arctic_hts
// ked_diphone kal_diphone)".
func parseFestivalList(out string) []string {
	i, j := strings.LastIndex(out, "("), strings.LastIndex(out, ")")
	if i < 0 || j < i {
		return nil
	}
	var voices []string
	for _, v := range strings.Fields(out[i+1 : j]) {
		if festivalName.MatchString(v) {
			voices = append(voices, v)
		}
	}
	return voices
}

// Render runs text2wave with the voice and tempo set by -eval, the text on
// stdin.
func (Festival) Render(ctx context.Context, voice, text string, tempo float64, path string) error {
	if !festivalName.MatchString(voice) {
		return fmt.Errorf("synth: festival: invalid voice name %q", voice)
	}
	if err := removeStale(path); err != nil {
		return fmt.Errorf("synth: festival: %w", err)
	}
	args := []string{"-eval", "(voice_" + voice + ")"}
	if strings.HasSuffix(voice, "_hts") {
		r := strconv.FormatFloat(tempo, 'f', 4, 64)
		args = append(args, "-eval", `(set! hts_engine_params (append hts_engine_params (list (list "-r" `+r+`))))`)
	} else {
		s := strconv.FormatFloat(1/tempo, 'f', 4, 64)
		args = append(args, "-eval", "(Parameter.set 'Duration_Stretch "+s+")")
	}
	args = append(args, "-o", path)
	_, err := command(ctx, strings.NewReader(text+"\n"), "text2wave", args...)
	if err == nil {
		err = checkWAV("text2wave", path)
	}
	if err != nil {
		return fmt.Errorf("synth: festival voice %s: %w", voice, err)
	}
	return nil
}
