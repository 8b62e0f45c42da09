"""A Vosk server client, as Vosk's own examples write one: sends raw
16 kHz 16-bit PCM from stdin in 0.25 s pieces, then eof, and prints the
text of the final results joined by spaces."""
import asyncio
import json
import sys

import websockets


async def main(url):
    pcm = sys.stdin.buffer.read()
    texts = []
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"config": {"sample_rate": 16000}}))
        for i in range(0, len(pcm), 8000):
            await ws.send(pcm[i:i + 8000])
            msg = json.loads(await ws.recv())
            if "text" in msg:
                texts.append(msg["text"])
        await ws.send('{"eof" : 1}')
        try:
            async for m in ws:
                msg = json.loads(m)
                if "text" in msg:
                    texts.append(msg["text"])
        except websockets.exceptions.ConnectionClosedOK:
            pass
    print(" ".join(texts))


asyncio.run(main(sys.argv[1]))
