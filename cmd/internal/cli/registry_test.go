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
	if err := r.Dispatch("tool", "H\n", "T\n", v1, []string{"alpha"}, nil, &out, &errOut); err != nil || ran != "alpha" {
		t.Errorf("Dispatch alpha: err %v, ran %q", err, ran)
	}
	if err := r.Dispatch("tool", "H\n", "T\n", v1, []string{"beta"}, nil, &out, &errOut); !errors.Is(err, ErrUsage) {
		t.Errorf("Dispatch beta: err %v, want a usage error", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("registering alpha twice did not panic")
		}
	}()
	r.Add("alpha", "again", cmd("alpha"))
}

func TestRegistryDefault(t *testing.T) {
	r := Registry{Default: "describe"}
	var got []string
	r.Add("describe", "describe files", func(args []string, _ io.Reader, _, _ io.Writer) error { got = args; return nil })
	r.Add("other", "another", func(args []string, _ io.Reader, _, _ io.Writer) error {
		got = append([]string{"other"}, args...)
		return nil
	})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"photo.jpg", "b.png"}, "photo.jpg,b.png"},
		{[]string{"-beam", "3", "photo.jpg"}, "-beam,3,photo.jpg"},
		{[]string{"describe", "x"}, "x"},
		{[]string{"other", "x"}, "other,x"},
	} {
		got = nil
		var out, errOut strings.Builder
		if err := r.Dispatch("t", "H\n", "T\n", v1, tc.args, nil, &out, &errOut); err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if s := strings.Join(got, ","); s != tc.want {
			t.Errorf("%q ran with %q, want %q", tc.args, s, tc.want)
		}
	}
	var out, errOut strings.Builder
	if err := r.Dispatch("t", "H\n", "T\n", v1, []string{"-h"}, nil, &out, &errOut); err != nil || !strings.Contains(out.String(), "Commands:") {
		t.Errorf("-h: %v, %q", err, out.String())
	}
	// A plain word that is neither a command nor a file: a mistyped
	// command, said in two lines.
	got = nil
	err := r.Dispatch("t", "H\n", "T\n", v1, []string{"descrbe", "x.png"}, nil, &out, &errOut)
	errOut.Reset()
	if code := ExitCode("t", err, &errOut); code != 2 || got != nil || errOut.String() != "t: unknown command \"descrbe\", and no file of that name\nRun 't -h' for the commands.\n" {
		t.Errorf("descrbe: exit %d, ran %q, stderr %q", code, got, errOut.String())
	}
}
