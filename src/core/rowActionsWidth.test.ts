import { describe, expect, it } from 'vitest';
import { actionsWidth, buttonWidth, inlineCount } from './rowActionsWidth.js';

describe('row actions width', () => {
  it('shows up to three inline, otherwise two and a menu', () => {
    expect(inlineCount(1)).toBe(1);
    expect(inlineCount(3)).toBe(3);
    expect(inlineCount(4)).toBe(2);
  });

  it('gives a short label the minimum button and a long one room for its text', () => {
    expect(buttonWidth('编辑')).toBe(64);
    expect(buttonWidth('Edit')).toBe(64);
    expect(buttonWidth('Move to case')).toBe(12 * 7 + 16);
    expect(buttonWidth('解除登录锁定')).toBe(6 * 12 + 16);
  });

  it('adds the inline buttons, and the menu button when actions are folded away', () => {
    expect(actionsWidth([])).toBe(0);
    expect(actionsWidth(['Edit'])).toBe(16 + 64);
    expect(actionsWidth(['Download', 'Move to case', 'Delete'])).toBe(16 + buttonWidth('Download') + buttonWidth('Move to case') + 64 + 2 * 2);
    expect(actionsWidth(['Edit', 'Stop', 'Unlock', 'Delete'])).toBe(16 + 64 + 64 + 2 + 2 + 32);
  });
});
