let audio: AudioContext | undefined;

/**
 * A short two-note chime for a knock at the lobby, made with Web Audio (no sound file to load).
 * Browsers may refuse to play before the page was interacted with; the toast then has to do alone.
 */
export function playKnockChime() {
  try {
    audio ??= new AudioContext();
    const context = audio;
    context.resume().catch(() => undefined);
    const now = context.currentTime;
    [660, 880].forEach((frequency, index) => {
      const start = now + index * 0.16;
      const tone = context.createOscillator();
      const volume = context.createGain();
      tone.type = 'sine';
      tone.frequency.value = frequency;
      // A quick fade in and out: a bare start and stop clicks.
      volume.gain.setValueAtTime(0.0001, start);
      volume.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
      volume.gain.exponentialRampToValueAtTime(0.0001, start + 0.3);
      tone.connect(volume).connect(context.destination);
      tone.start(start);
      tone.stop(start + 0.32);
    });
  } catch {
    // No Web Audio, or playback refused: silence is acceptable, the toast still shows.
  }
}
