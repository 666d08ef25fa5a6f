import { Injectable } from '@nestjs/common';
import type { Projection } from './projection';

/** Feature modules register their projections here; the projector runs whatever is registered. */
@Injectable()
export class ProjectionRegistry {
  private readonly projections: Projection[] = [];

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each projection types its own document
  register(...projections: Projection<any>[]): void {
    for (const p of projections as Projection[]) {
      if (this.projections.some((q) => q.name === p.name)) throw new Error(`projection ${p.name} registered twice`);
      this.projections.push(p);
    }
  }

  all(): readonly Projection[] {
    return this.projections;
  }
}
