// Transcribes a file with the official OpenAI Node SDK in streaming mode
// (stream: true) against base URL argv[2] and prints the done event's
// text; fails when the deltas do not add up to it.
// Usage: NODE_PATH=.../node_modules node openai_stream.cjs URL FILE
const OpenAI = require('openai');
const fs = require('fs');

(async () => {
  const client = new OpenAI({ baseURL: process.argv[2], apiKey: 'unused' });
  const stream = await client.audio.transcriptions.create({
    file: fs.createReadStream(process.argv[3]), model: 'whisper-1', stream: true,
  });
  let deltas = '', done = null, n = 0;
  for await (const e of stream) {
    if (e.type === 'transcript.text.delta') { deltas += e.delta; n++; }
    else if (e.type === 'transcript.text.done') done = e.text;
  }
  if (done === null || n === 0 || deltas !== done) {
    console.error(`${n} deltas ${JSON.stringify(deltas)}, done ${JSON.stringify(done)}`);
    process.exit(1);
  }
  console.log(done);
})().catch((e) => { console.error(e); process.exit(1); });
