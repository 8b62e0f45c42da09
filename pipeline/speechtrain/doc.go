// Package speechtrain trains attend's Listen-Attend-Spell speech model
// (models/asr) on speech manifests (package speechdata).
//
// Train fits a model with bucketed graphs, SpecAugment and checkpoints it
// can resume from (the loop is pipeline/trainloop's, shared with caption
// train; the best model is the one of lowest dev CER, and progress lines
// report hours of audio trained on per wall-clock hour). Loading can add
// speed-perturbed copies of the real speech and augmented ones
// (TrainOptions.Augment: VTLP, reverberation, babble or coloured noise,
// telephone line; see augment.go), seeded per utterance and copy so that
// they do not depend on the number of workers. The dev figure Train logs
// is quick and not the one published: greedy search over each
// utterance's features whole, without VAD, chunking or the trimming of
// digital silence (score.go); speecheval.Evaluate measures what "asr
// transcribe" prints. The files it writes are read back with
// speechmodel.LoadModel.
package speechtrain
