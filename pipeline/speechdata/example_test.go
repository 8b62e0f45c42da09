package speechdata_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/attend-go/attend/pipeline/speechdata"
)

func ExampleNormalize() {
	for _, s := range []string{
		"Dr. Smith's 2nd café—open 24/7, 50% off!",
		"In 1999 the dogs’ ball cost $3.50.",
		"'Tis the 1990s, AT&T said.",
	} {
		fmt.Println(speechdata.Normalize(s))
	}
	// Output:
	// dr smith's second cafe open twenty four seven fifty percent off
	// in nineteen ninety nine the dogs ball cost three point five zero
	// tis the nineteen nineties at and t said
}

func ExampleRead() {
	dir, err := os.MkdirTemp("", "speechdata")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	manifest := "path\ttext\tspeaker\n" +
		"spk1/a.ogg\tWE CALL IT BEAR\t0001\n" +
		"spk2/b.ogg\tZERO THREE FIVE ONE\t0002\n"
	file := filepath.Join(dir, "train.tsv")
	if err := os.WriteFile(file, []byte(manifest), 0o644); err != nil {
		log.Fatal(err)
	}

	utts, err := speechdata.Read(file)
	if err != nil {
		log.Fatal(err)
	}
	for _, u := range utts {
		rel, _ := filepath.Rel(dir, u.Path)
		fmt.Printf("%s %s %q\n", u.Speaker, rel, speechdata.Normalize(u.Text))
	}
	// Output:
	// 0001 spk1/a.ogg "we call it bear"
	// 0002 spk2/b.ogg "zero three five one"
}

func ExampleWriteTSV() {
	utts := []speechdata.Utterance{
		{ID: "84-121123-0000", Path: "/data/84-121123-0000.flac", Text: "GO DO YOU HEAR", Speaker: "84"},
	}
	if err := speechdata.WriteTSV(os.Stdout, utts); err != nil {
		log.Fatal(err)
	}
	// Output:
	// path	text	speaker	id
	// /data/84-121123-0000.flac	GO DO YOU HEAR	84	84-121123-0000
}

func ExampleSplitBySpeaker() {
	var utts []speechdata.Utterance
	for _, spk := range []string{"ann", "bob", "cat", "dan", "eve"} {
		for i := range 2 {
			id := fmt.Sprintf("%s-%d", spk, i)
			utts = append(utts, speechdata.Utterance{ID: id, Path: id + ".wav", Speaker: spk})
		}
	}
	train, dev, err := speechdata.SplitBySpeaker(utts, 2, 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(train), "train utterances")
	for _, u := range dev {
		fmt.Println("dev:", u.ID)
	}
	// Output:
	// 6 train utterances
	// dev: bob-0
	// dev: bob-1
	// dev: dan-0
	// dev: dan-1
}
