package captioning_test

import (
	"context"
	"fmt"
	"log"

	"github.com/attend-go/attend/pipeline/captioning"
)

// Caption a decoded image with the embedded caption model. The image
// encoder (MobileNetV2) is not shipped: it is found through $ATTEND_ENCODER
// or the user cache, or downloaded there at the first image (see
// EncoderHelp), so this example is compiled but not run by go test.
func ExampleCaptioner_CaptionImage() {
	ctx := context.Background()
	c, err := captioning.NewCaptioner(ctx, captioning.CaptionerOptions{}) // the defaults
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	img, _, err := captioning.LoadImage("../../testdata/photos/chelsea.jpg", nil) // or any image.Image
	if err != nil {
		log.Fatal(err)
	}
	r, err := c.CaptionImage(img)
	if err != nil {
		log.Fatal(err) // errors.Is(err, captioning.ErrNoEncoder): see EncoderHelp
	}
	fmt.Println(r.Caption)
}
