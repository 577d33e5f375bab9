import os from 'node:os';
import type { MachineInfo } from '../proxy/bench-report.js';

export function describeMachine(): MachineInfo {
  return {
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memoryGiB: os.totalmem() / 1024 ** 3,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

export function machineLine(machine: MachineInfo): string {
  return `${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB.toFixed(1)} GiB, Node ${machine.node} (${machine.platform})`;
}
