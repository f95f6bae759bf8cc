/**
 * What the built-in types' scenario files share: the invented register districts their people
 * were registered in, and how a name is written and signed there. Kept outside `scenarios/`,
 * whose every file the loader reads as a scenario file.
 */

export interface Name {
  forenames: string;
  surname: string;
}
export const nm = (forenames: string, surname: string): Name => ({ forenames, surname });

/** Capitalises each part of an upper-case register surname: O'ROURKE → O'Rourke. */
const properCase = (name: string) =>
  name.toLowerCase().replace(/(^|[\s'’-])(\p{L})/gu, (_, gap: string, letter: string) => gap + letter.toUpperCase());

/** A signature as a person might write it: first initial and surname. */
export const signed = ({ forenames, surname }: Name) => `${forenames[0]}. ${properCase(surname)}`;

/** A register district: its names, and the people who sign or certify there. */
export interface Place {
  district: string;
  subdistrict: string;
  area: string;
  town: string;
  hospital: string;
  registrar: string;
  superintendent: string;
  doctor: string;
  coroner: string;
}

export const KESTLEWICK: Place = {
  district: 'Kestlewick',
  subdistrict: 'Kestlewick North',
  area: 'Aldershire',
  town: 'Kestlewick',
  hospital: 'Kestlewick General Hospital',
  registrar: 'M. Ollerenshaw',
  superintendent: 'D. Kettleborough',
  doctor: 'Dr A. Venables MB ChB',
  coroner: 'Helena Marsh',
};
export const HALSWORTH: Place = {
  district: 'Halsworth Vale',
  subdistrict: 'Brindle Cross',
  area: 'Halsworth',
  town: 'Brindle Cross',
  hospital: 'Halsworth Royal Infirmary',
  registrar: 'S. Pickavance',
  superintendent: 'R. Entwistle',
  doctor: 'Dr K. Oduya MRCP',
  coroner: 'Graham Tollervey',
};
export const PENNOCK: Place = {
  district: 'Pennock Bay',
  subdistrict: 'Saltings',
  area: 'Lindmoor',
  town: 'Pennock Bay',
  hospital: 'Pennock Bay Community Hospital',
  registrar: 'J. Trevaskis',
  superintendent: 'L. Penberthy',
  doctor: 'Dr F. Carrick MB BS',
  coroner: 'Anne Rosewarne',
};
export const CWM_ARAN: Place = {
  district: 'Cwm Aran',
  subdistrict: 'Llanfedw',
  area: 'Glanaran',
  town: 'Llanfedw',
  hospital: 'Ysbyty Dyffryn Aran',
  registrar: 'G. Prosser',
  superintendent: 'E. Vaughan-Jenkins',
  doctor: 'Dr M. Pritchard MB BCh',
  coroner: 'Owain Tudur',
};

/** An address in a district's town. */
export const at = (place: Place, street: string) => `${street}, ${place.town}`;
