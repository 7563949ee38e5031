import { AUDIO_BITRATE_KBPS } from "@balcao/contract";

/** A microphone recording encoded on the fly to MP3 (mono, 128 kbps) with a pure-JS LAME. */
export interface Recording {
  stop: () => Promise<Blob>;
  cancel: () => void;
}

export async function startRecording(): Promise<Recording> {
  const [{ Mp3Encoder }, stream] = await Promise.all([
    import("@breezystack/lamejs"),
    navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: true } }),
  ]);
  const ctx = new AudioContext();
  await ctx.resume().catch(() => undefined);
  const source = ctx.createMediaStreamSource(stream);
  // ScriptProcessor is deprecated but everywhere and needs no separate worklet file
  const processor = ctx.createScriptProcessor(4096, 1, 1);
  const encoder = new Mp3Encoder(1, ctx.sampleRate, AUDIO_BITRATE_KBPS);
  const chunks: Uint8Array[] = [];
  processor.onaudioprocess = (e) => {
    const input = e.inputBuffer.getChannelData(0);
    const pcm = new Int16Array(input.length);
    for (let i = 0; i < input.length; i++) {
      const s = Math.max(-1, Math.min(1, input[i]));
      pcm[i] = s < 0 ? s * 0x8000 : s * 0x7fff;
    }
    const out = encoder.encodeBuffer(pcm);
    if (out.length) chunks.push(new Uint8Array(out));
  };
  source.connect(processor);
  // a muted sink keeps the processor running without echoing the microphone
  const mute = ctx.createGain();
  mute.gain.value = 0;
  processor.connect(mute);
  mute.connect(ctx.destination);

  const release = () => {
    processor.onaudioprocess = null;
    source.disconnect();
    processor.disconnect();
    for (const track of stream.getTracks()) track.stop();
    void ctx.close().catch(() => undefined);
  };
  return {
    stop: async () => {
      release();
      const end = encoder.flush();
      if (end.length) chunks.push(new Uint8Array(end));
      return new Blob(chunks as BlobPart[], { type: "audio/mpeg" });
    },
    cancel: release,
  };
}
