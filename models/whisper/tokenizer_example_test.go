package whisper_test

import (
	"fmt"

	"github.com/attend-go/attend/models/whisper"
)

func ExampleTokenizer() {
	// A multilingual model's dimensions (tiny); only n_vocab matters here.
	d := whisper.Dims{NMels: 80, NAudioCtx: 1500, NAudioState: 384, NAudioHead: 6, NAudioLayer: 4,
		NVocab: 51865, NTextCtx: 448, NTextState: 384, NTextHead: 6, NTextLayer: 4}
	tok, err := whisper.NewTokenizer(d)
	if err != nil {
		panic(err)
	}
	prompt, err := tok.SOTSequenceIncludingNoTimestamps("en", "transcribe")
	if err != nil {
		panic(err)
	}
	ids := tok.Encode(" Hello world")
	fmt.Println(prompt, ids)
	fmt.Println(tok.DecodeWithTimestamps(append(append([]int{tok.TimestampBegin}, ids...), tok.TimestampBegin+54)))
	fmt.Println(tok.Decode(ids))
	// Output:
	// [50258 50259 50359 50363] [2425 1002]
	// <|0.00|> Hello world<|1.08|>
	//  Hello world
}
