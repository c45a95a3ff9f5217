import type { PictureProcessor } from '../../domain/ports';
import { initialsPicture } from './initials-picture';
import { profilePicture } from './raster-picture';
import { sanitizeSvg } from './svg-sanitizer';

/** The picture work on maintained libraries: DOMPurify on jsdom (SVG), sharp (raster uploads), jimp (defaults). */
export const libraryPictureProcessor: PictureProcessor = {
  sanitizeSvg,
  profilePicture,
  initialsPicture,
};
