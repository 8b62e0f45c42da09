// Command paramcount prints the parameters of the models that bench/run.sh
// compares with PyTorch, built exactly as the Go benchmarks build them:
//
//	decoder   BenchmarkDecoderTrainStep and BenchmarkDecoderStepEager
//	          (models/asr/speller_bench_test.go): additive attention
//	          H=D=A=256 inside a speller with V=30, E=64, H=256
//	listener  BenchmarkBiLSTMTrainStep (models/bench_layers_test.go): a
//	          2-layer pyramidal BiLSTM, 80 inputs, 256 units per direction
//
// Usage:
//
//	go run ./bench/paramcount [-v]
//
// It prints one line per model, "PARAMS model=NAME trainable=N", the format
// of the PyTorch scripts' --params output, so that run.sh can check that
// both sides train the same number of scalars; -v lists every parameter
// with its shape first.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"

	"github.com/attend-go/attend/attention"
	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/asr"
	"gorgonia.org/tensor"
)

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case errors.Is(err, errUsage):
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "paramcount:", err)
		os.Exit(1)
	}
}

var errUsage = errors.New("paramcount: usage")

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("paramcount", flag.ContinueOnError)
	fs.SetOutput(stderr)
	verbose := fs.Bool("v", false, "list every parameter with its shape")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "paramcount: unexpected arguments %q\n", fs.Args())
		return errUsage
	}
	for _, m := range benchModels {
		ps, err := m.build()
		if err != nil {
			return fmt.Errorf("paramcount: %s: %w", m.name, err)
		}
		if *verbose {
			for _, p := range ps.All() {
				fmt.Fprintf(stdout, "  %-32s %-18v %9d\n", p.Name, p.Shape(), p.Size())
			}
		}
		fmt.Fprintf(stdout, "PARAMS model=%s trainable=%d\n", m.name, ps.Count())
	}
	return nil
}

// benchModels builds each benchmarked model's parameters with the sizes
// of its Go benchmark.
var benchModels = []struct {
	name  string
	build func() (*models.Params, error)
}{
	{"decoder", func() (*models.Params, error) {
		const V, E, H, D, A = 30, 64, 256, 256, 256
		ps := newParams()
		att, err := attention.NewAdditive(ps, "dec.att", H, D, A)
		if err != nil {
			return nil, err
		}
		_, err = asr.NewSpeller(ps, "dec", asr.SpellerConfig{Vocab: V, Embed: E, Hidden: H}, att)
		return ps, err
	}},
	{"listener", func() (*models.Params, error) {
		const I, H, layers = 80, 256, 2
		ps := newParams()
		models.NewPyramidalBiLSTM(ps, "listener", I, H, layers)
		return ps, nil
	}},
}

func newParams() *models.Params {
	return models.NewParams(tensor.Float32, rand.New(rand.NewPCG(1, 1)))
}
