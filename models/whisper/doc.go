// Package whisper runs OpenAI's Whisper (Radford et al. 2022, "Robust
// Speech Recognition via Large-Scale Weak Supervision") in pure Go:
// checkpoints users bring (whisper.cpp's ggml files, Hugging Face
// safetensors), the byte-level BPE tokenizer, the transformer
// encoder–decoder, and decoding exactly as openai/whisper's transcribe().
package whisper
