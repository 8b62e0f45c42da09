package cli

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestRegistry(t *testing.T) {
	var r Registry
	ran := ""
	cmd := func(name string) Command {
		return func(args []string, _ io.Reader, _, stderr io.Writer) error {
			if len(args) == 1 && args[0] == "-h" {
				io.WriteString(stderr, "help of "+name)
				return ErrUsage
			}
			ran = name
			return nil
		}
	}
	r.Add("zeta", "last one", cmd("zeta"))
	r.Add("alpha", "first one", cmd("alpha"))
	usage := r.Usage("HEAD\n", "TAIL\n")
	want := "HEAD\n\nCommands:\n\n\talpha    first one\n\tversion  print the version\n\tzeta     last one\nTAIL\n"
	if usage != want {
		t.Errorf("usage:\n%q\nwant\n%q", usage, want)
	}
	if got := strings.Join(r.Names(), ","); got != "alpha,zeta" {
		t.Errorf("Names() = %s", got)
	}
	if got := r.Help("zeta"); got != "help of zeta" {
		t.Errorf("Help(zeta) = %q", got)
	}
	var out, errOut strings.Builder
	if err := r.Dispatch("tool", "H\n", "T\n", "v1", []string{"alpha"}, nil, &out, &errOut); err != nil || ran != "alpha" {
		t.Errorf("Dispatch alpha: err %v, ran %q", err, ran)
	}
	if err := r.Dispatch("tool", "H\n", "T\n", "v1", []string{"beta"}, nil, &out, &errOut); !errors.Is(err, ErrUsage) {
		t.Errorf("Dispatch beta: err %v, want a usage error", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("registering alpha twice did not panic")
		}
	}()
	r.Add("alpha", "again", cmd("alpha"))
}
