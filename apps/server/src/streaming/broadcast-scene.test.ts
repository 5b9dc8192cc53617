import { describe, expect, it } from 'vitest';
import { AppError } from '../http/app-error.js';
import { sceneColumns } from './broadcast-scene.js';

const NOW_MS = Date.UTC(2026, 11, 5, 3, 0, 0);
const NOW = NOW_MS / 1000;

describe('sceneColumns', () => {
  it('leaves every column not sent as it is', () => {
    expect(sceneColumns({}, NOW_MS)).toEqual({
      overlayScene: undefined,
      overlaySceneMessage: undefined,
      overlaySceneCountdownTo: undefined,
    });
  });

  it('stores a scene, a trimmed message and a countdown five minutes ahead', () => {
    expect(sceneColumns({ scene: 'starting_soon', message: '  Back at 3  ', countdownTo: NOW + 300 }, NOW_MS)).toEqual({
      overlayScene: 'starting_soon',
      overlaySceneMessage: 'Back at 3',
      overlaySceneCountdownTo: new Date((NOW + 300) * 1000),
    });
  });

  it('clears the message when it is empty and the countdown when it is 0', () => {
    expect(sceneColumns({ message: '   ', countdownTo: 0 }, NOW_MS)).toMatchObject({
      overlaySceneMessage: null,
      overlaySceneCountdownTo: null,
    });
  });

  it('accepts a countdown from now up to exactly a day ahead', () => {
    expect(sceneColumns({ countdownTo: NOW }, NOW_MS).overlaySceneCountdownTo).toEqual(new Date(NOW_MS));
    expect(sceneColumns({ countdownTo: NOW + 86_400 }, NOW_MS).overlaySceneCountdownTo).toEqual(
      new Date((NOW + 86_400) * 1000),
    );
  });

  it('refuses a countdown in the past or more than a day ahead, with the reason', () => {
    const reasonOf = (countdownTo: number) => {
      try {
        sceneColumns({ countdownTo }, NOW_MS);
        return 'accepted';
      } catch (error) {
        return error instanceof AppError ? `${error.statusCode} ${error.key}` : String(error);
      }
    };
    expect(reasonOf(NOW - 1)).toBe('400 broadcasts.countdown_past');
    expect(reasonOf(NOW + 86_401)).toBe('400 broadcasts.countdown_too_far');
  });
});
