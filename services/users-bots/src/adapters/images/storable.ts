import type { StoredImage } from '../../domain/ports';

/** Every image store refuses the same pictures: nothing over `max` bytes. */
export function assertStorable(image: StoredImage, max: number): void {
  if (image.data.length > max) throw new RangeError(`an image of ${image.data.length} bytes is over the ${max}-byte limit of the image store`);
}
