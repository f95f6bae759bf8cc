/**
 * The generator's places (public geography): registration districts with their
 * administrative areas and towns, streets, buildings, hospitals, care homes,
 * churches and venues. Streets, like names, are weighted by rank.
 */
export interface District {
  /** Registration district. */
  readonly name: string;
  /** Administrative area: county, metropolitan county, unitary authority or Welsh principal area. */
  readonly area: string;
  /** Towns of the district; each is also the name of a registration sub-district. */
  readonly towns: readonly string[];
  readonly wales: boolean;
  /** Rough population, in hundreds of thousands: how often the district is chosen. */
  readonly weight: number;
}

const en = (name: string, area: string, weight: number, ...towns: string[]): District => ({
  name,
  area,
  towns: towns.length ? towns : [name],
  wales: false,
  weight,
});
const cy = (name: string, area: string, weight: number, ...towns: string[]): District => ({
  name,
  area,
  towns: towns.length ? towns : [name],
  wales: true,
  weight,
});

export const DISTRICTS: readonly District[] = [
  // London
  en('Westminster', 'Greater London', 2.6, 'Westminster', 'Marylebone', 'Paddington', 'Pimlico'),
  en('Camden', 'Greater London', 2.7, 'Camden Town', 'Hampstead', 'Holborn', 'Kentish Town'),
  en('Islington', 'Greater London', 2.4, 'Islington', 'Highbury', 'Holloway'),
  en('Hackney', 'Greater London', 2.6, 'Hackney', 'Stoke Newington', 'Shoreditch', 'Dalston'),
  en('Tower Hamlets', 'Greater London', 3.1, 'Stepney', 'Bethnal Green', 'Poplar', 'Whitechapel'),
  en('Newham', 'Greater London', 3.5, 'East Ham', 'West Ham', 'Stratford', 'Forest Gate'),
  en('Southwark', 'Greater London', 3.1, 'Southwark', 'Camberwell', 'Peckham', 'Bermondsey'),
  en('Lambeth', 'Greater London', 3.2, 'Lambeth', 'Brixton', 'Streatham', 'Clapham'),
  en('Lewisham', 'Greater London', 3.0, 'Lewisham', 'Deptford', 'Catford'),
  en('Greenwich', 'Greater London', 2.9, 'Greenwich', 'Woolwich', 'Eltham'),
  en('Croydon', 'Greater London', 3.9, 'Croydon', 'Purley', 'Thornton Heath'),
  en('Barnet', 'Greater London', 3.9, 'Barnet', 'Finchley', 'Hendon', 'Edgware'),
  en('Brent', 'Greater London', 3.4, 'Wembley', 'Willesden', 'Kilburn'),
  en('Ealing', 'Greater London', 3.7, 'Ealing', 'Acton', 'Southall'),
  en('Hounslow', 'Greater London', 2.9, 'Hounslow', 'Chiswick', 'Feltham'),
  en('Haringey', 'Greater London', 2.6, 'Tottenham', 'Hornsey', 'Wood Green'),
  en('Enfield', 'Greater London', 3.3, 'Enfield', 'Edmonton', 'Southgate'),
  en('Wandsworth', 'Greater London', 3.3, 'Wandsworth', 'Battersea', 'Putney', 'Tooting'),
  en('Kensington and Chelsea', 'Greater London', 1.4, 'Kensington', 'Chelsea'),
  en('Hammersmith and Fulham', 'Greater London', 1.8, 'Hammersmith', 'Fulham'),
  en('Redbridge', 'Greater London', 3.1, 'Ilford', 'Woodford', 'Wanstead'),
  en('Waltham Forest', 'Greater London', 2.8, 'Walthamstow', 'Leyton', 'Chingford'),
  en('Bromley', 'Greater London', 3.3, 'Bromley', 'Beckenham', 'Orpington'),
  en('Harrow', 'Greater London', 2.6, 'Harrow', 'Pinner', 'Wealdstone'),
  en('Hillingdon', 'Greater London', 3.1, 'Uxbridge', 'Hayes', 'Ruislip'),
  // North of England
  en('Manchester', 'Greater Manchester', 5.5, 'Manchester', 'Didsbury', 'Wythenshawe', 'Moss Side'),
  en('Salford', 'Greater Manchester', 2.7, 'Salford', 'Eccles', 'Swinton'),
  en('Bolton', 'Greater Manchester', 2.9, 'Bolton', 'Farnworth', 'Horwich'),
  en('Wigan', 'Greater Manchester', 3.3, 'Wigan', 'Leigh', 'Ashton-in-Makerfield'),
  en('Stockport', 'Greater Manchester', 2.9, 'Stockport', 'Cheadle', 'Marple'),
  en('Oldham', 'Greater Manchester', 2.4, 'Oldham', 'Royton', 'Saddleworth'),
  en('Rochdale', 'Greater Manchester', 2.2, 'Rochdale', 'Heywood', 'Middleton'),
  en('Liverpool', 'Merseyside', 4.9, 'Liverpool', 'Walton', 'Toxteth', 'West Derby'),
  en('Wirral', 'Merseyside', 3.2, 'Birkenhead', 'Wallasey', 'West Kirby'),
  en('Sefton', 'Merseyside', 2.8, 'Southport', 'Bootle', 'Crosby'),
  en('Leeds', 'West Yorkshire', 8.0, 'Leeds', 'Morley', 'Otley', 'Wetherby'),
  en('Bradford', 'West Yorkshire', 5.4, 'Bradford', 'Keighley', 'Shipley', 'Ilkley'),
  en('Kirklees', 'West Yorkshire', 4.3, 'Huddersfield', 'Dewsbury', 'Batley'),
  en('Calderdale', 'West Yorkshire', 2.1, 'Halifax', 'Brighouse', 'Todmorden', 'Hebden Bridge'),
  en('Wakefield', 'West Yorkshire', 3.5, 'Wakefield', 'Pontefract', 'Castleford'),
  en('Sheffield', 'South Yorkshire', 5.8, 'Sheffield', 'Stocksbridge', 'Hillsborough'),
  en('Doncaster', 'South Yorkshire', 3.1, 'Doncaster', 'Thorne', 'Mexborough'),
  en('Barnsley', 'South Yorkshire', 2.4, 'Barnsley', 'Penistone'),
  en('Kingston upon Hull', 'Kingston upon Hull', 2.6, 'Hull'),
  en('York', 'York', 2.0, 'York'),
  en('North Yorkshire', 'North Yorkshire', 6.1, 'Harrogate', 'Scarborough', 'Northallerton', 'Skipton', 'Whitby'),
  en('Newcastle upon Tyne', 'Tyne and Wear', 3.0, 'Newcastle upon Tyne', 'Gosforth', 'Walker'),
  en('Sunderland', 'Tyne and Wear', 2.8, 'Sunderland', 'Washington', 'Houghton-le-Spring'),
  en('Gateshead', 'Tyne and Wear', 2.0, 'Gateshead', 'Blaydon'),
  en('County Durham', 'County Durham', 5.2, 'Durham', 'Bishop Auckland', 'Consett', 'Chester-le-Street', 'Peterlee'),
  en('Middlesbrough', 'Middlesbrough', 1.4, 'Middlesbrough'),
  en('Cumbria', 'Cumbria', 5.0, 'Carlisle', 'Kendal', 'Barrow-in-Furness', 'Workington', 'Penrith'),
  en('Lancashire', 'Lancashire', 6.0, 'Preston', 'Lancaster', 'Chorley', 'Burnley', 'Ormskirk'),
  en('Blackpool', 'Blackpool', 1.4, 'Blackpool'),
  en('Blackburn with Darwen', 'Blackburn with Darwen', 1.5, 'Blackburn', 'Darwen'),
  en('Cheshire West and Chester', 'Cheshire West and Chester', 3.4, 'Chester', 'Ellesmere Port', 'Northwich'),
  en('Cheshire East', 'Cheshire East', 3.8, 'Crewe', 'Macclesfield', 'Congleton', 'Nantwich'),
  // Midlands
  en('Birmingham', 'West Midlands', 11.4, 'Birmingham', 'Erdington', 'Edgbaston', 'Sutton Coldfield', 'Yardley'),
  en('Coventry', 'West Midlands', 3.4, 'Coventry'),
  en('Wolverhampton', 'West Midlands', 2.6, 'Wolverhampton', 'Bilston'),
  en('Sandwell', 'West Midlands', 3.3, 'West Bromwich', 'Oldbury', 'Smethwick'),
  en('Dudley', 'West Midlands', 3.2, 'Dudley', 'Stourbridge', 'Halesowen'),
  en('Walsall', 'West Midlands', 2.8, 'Walsall', 'Bloxwich'),
  en('Stoke-on-Trent', 'Stoke-on-Trent', 2.6, 'Hanley', 'Burslem', 'Longton', 'Stoke-on-Trent'),
  en('Staffordshire', 'Staffordshire', 8.7, 'Stafford', 'Lichfield', 'Burton upon Trent', 'Tamworth', 'Leek'),
  en('Derby', 'Derby', 2.6, 'Derby'),
  en('Derbyshire', 'Derbyshire', 8.0, 'Chesterfield', 'Buxton', 'Matlock', 'Ilkeston'),
  en('Nottingham', 'Nottingham', 3.2, 'Nottingham', 'Bulwell'),
  en('Nottinghamshire', 'Nottinghamshire', 8.3, 'Mansfield', 'Newark', 'Worksop', 'Beeston'),
  en('Leicester', 'Leicester', 3.7, 'Leicester'),
  en('Leicestershire', 'Leicestershire', 7.1, 'Loughborough', 'Hinckley', 'Melton Mowbray', 'Market Harborough'),
  en('Lincolnshire', 'Lincolnshire', 7.7, 'Lincoln', 'Boston', 'Grantham', 'Skegness', 'Spalding'),
  en('Northamptonshire', 'Northamptonshire', 7.6, 'Northampton', 'Kettering', 'Corby', 'Wellingborough'),
  en('Warwickshire', 'Warwickshire', 6.0, 'Warwick', 'Nuneaton', 'Rugby', 'Stratford-upon-Avon'),
  en('Worcestershire', 'Worcestershire', 6.0, 'Worcester', 'Kidderminster', 'Redditch', 'Malvern'),
  en('Herefordshire', 'Herefordshire', 1.9, 'Hereford', 'Leominster', 'Ross-on-Wye'),
  en('Shropshire', 'Shropshire', 3.2, 'Shrewsbury', 'Oswestry', 'Ludlow', 'Bridgnorth'),
  en('Telford and Wrekin', 'Telford and Wrekin', 1.9, 'Telford', 'Wellington'),
  // East of England
  en('Norfolk', 'Norfolk', 9.2, 'Norwich', "King's Lynn", 'Great Yarmouth', 'Thetford', 'Cromer'),
  en('Suffolk', 'Suffolk', 7.6, 'Ipswich', 'Bury St Edmunds', 'Lowestoft', 'Sudbury'),
  en('Cambridgeshire', 'Cambridgeshire', 6.8, 'Cambridge', 'Ely', 'Huntingdon', 'Wisbech'),
  en('Peterborough', 'Peterborough', 2.1, 'Peterborough'),
  en('Essex', 'Essex', 15.0, 'Chelmsford', 'Colchester', 'Basildon', 'Harlow', 'Brentwood'),
  en('Southend-on-Sea', 'Southend-on-Sea', 1.8, 'Southend-on-Sea', 'Leigh-on-Sea'),
  en('Hertfordshire', 'Hertfordshire', 12.0, "St Albans", 'Watford', 'Stevenage', 'Hertford', "Bishop's Stortford"),
  en('Luton', 'Luton', 2.2, 'Luton'),
  en('Bedford', 'Bedford', 1.8, 'Bedford', 'Kempston'),
  en('Milton Keynes', 'Milton Keynes', 2.9, 'Milton Keynes', 'Bletchley'),
  // South of England
  en('Kent', 'Kent', 15.8, 'Maidstone', 'Canterbury', 'Ashford', 'Tunbridge Wells', 'Folkestone', 'Margate'),
  en('Medway', 'Medway', 2.8, 'Chatham', 'Gillingham', 'Rochester'),
  en('Surrey', 'Surrey', 12.0, 'Guildford', 'Woking', 'Epsom', 'Reigate', 'Farnham'),
  en('East Sussex', 'East Sussex', 5.5, 'Eastbourne', 'Hastings', 'Lewes', 'Bexhill-on-Sea'),
  en('Brighton and Hove', 'Brighton and Hove', 2.8, 'Brighton', 'Hove'),
  en('West Sussex', 'West Sussex', 8.8, 'Chichester', 'Crawley', 'Worthing', 'Horsham', 'Bognor Regis'),
  en('Hampshire', 'Hampshire', 14.0, 'Winchester', 'Basingstoke', 'Aldershot', 'Andover', 'Fareham'),
  en('Southampton', 'Southampton', 2.5, 'Southampton'),
  en('Portsmouth', 'Portsmouth', 2.1, 'Portsmouth', 'Southsea'),
  en('Isle of Wight', 'Isle of Wight', 1.4, 'Newport', 'Ryde', 'Cowes'),
  en('Reading', 'Reading', 1.6, 'Reading'),
  en('Oxfordshire', 'Oxfordshire', 7.0, 'Oxford', 'Banbury', 'Abingdon', 'Witney'),
  en('Buckinghamshire', 'Buckinghamshire', 5.5, 'Aylesbury', 'High Wycombe', 'Amersham'),
  en('City of Bristol', 'City of Bristol', 4.7, 'Bristol', 'Clifton', 'Bedminster'),
  en('Bath and North East Somerset', 'Bath and North East Somerset', 1.9, 'Bath', 'Keynsham'),
  en('Somerset', 'Somerset', 5.7, 'Taunton', 'Yeovil', 'Bridgwater', 'Frome', 'Wells'),
  en('Gloucestershire', 'Gloucestershire', 6.4, 'Gloucester', 'Cheltenham', 'Stroud', 'Cirencester'),
  en('Wiltshire', 'Wiltshire', 5.1, 'Salisbury', 'Chippenham', 'Trowbridge', 'Devizes'),
  en('Swindon', 'Swindon', 2.3, 'Swindon'),
  en('Dorset', 'Dorset', 3.8, 'Dorchester', 'Weymouth', 'Bridport', 'Sherborne'),
  en('Bournemouth, Christchurch and Poole', 'Bournemouth, Christchurch and Poole', 4.0, 'Bournemouth', 'Poole', 'Christchurch'),
  en('Devon', 'Devon', 8.1, 'Exeter', 'Barnstaple', 'Exmouth', 'Newton Abbot', 'Tiverton'),
  en('Plymouth', 'Plymouth', 2.6, 'Plymouth', 'Devonport'),
  en('Torbay', 'Torbay', 1.4, 'Torquay', 'Paignton', 'Brixham'),
  en('Cornwall', 'Cornwall', 5.7, 'Truro', 'Penzance', 'Bodmin', 'St Austell', 'Falmouth', 'Redruth'),
  // Wales
  cy('Cardiff', 'Cardiff', 3.6, 'Cardiff', 'Llandaff', 'Whitchurch'),
  cy('Swansea', 'Swansea', 2.4, 'Swansea', 'Gorseinon', 'Mumbles'),
  cy('Newport', 'Newport', 1.6, 'Newport', 'Caerleon'),
  cy('Vale of Glamorgan', 'Vale of Glamorgan', 1.3, 'Barry', 'Penarth', 'Cowbridge'),
  cy('Rhondda Cynon Taf', 'Rhondda Cynon Taf', 2.4, 'Pontypridd', 'Aberdare', 'Tonypandy', 'Treorchy'),
  cy('Merthyr Tydfil', 'Merthyr Tydfil', 0.6, 'Merthyr Tydfil'),
  cy('Caerphilly', 'Caerphilly', 1.8, 'Caerphilly', 'Bargoed', 'Blackwood'),
  cy('Bridgend', 'Bridgend', 1.5, 'Bridgend', 'Maesteg', 'Porthcawl'),
  cy('Neath Port Talbot', 'Neath Port Talbot', 1.4, 'Neath', 'Port Talbot'),
  cy('Carmarthenshire', 'Carmarthenshire', 1.9, 'Carmarthen', 'Llanelli', 'Ammanford'),
  cy('Pembrokeshire', 'Pembrokeshire', 1.2, 'Haverfordwest', 'Pembroke', 'Tenby', 'Fishguard'),
  cy('Ceredigion', 'Ceredigion', 0.7, 'Aberystwyth', 'Cardigan', 'Lampeter'),
  cy('Powys', 'Powys', 1.3, 'Newtown', 'Brecon', 'Llandrindod Wells', 'Welshpool'),
  cy('Gwynedd', 'Gwynedd', 1.2, 'Caernarfon', 'Bangor', 'Pwllheli', 'Dolgellau', 'Blaenau Ffestiniog'),
  cy('Isle of Anglesey', 'Isle of Anglesey', 0.7, 'Holyhead', 'Llangefni', 'Beaumaris'),
  cy('Conwy', 'Conwy', 1.2, 'Llandudno', 'Colwyn Bay', 'Conwy', 'Llanrwst'),
  cy('Denbighshire', 'Denbighshire', 1.0, 'Rhyl', 'Denbigh', 'Ruthin', 'Prestatyn'),
  cy('Flintshire', 'Flintshire', 1.6, 'Mold', 'Flint', 'Buckley', 'Holywell'),
  cy('Wrexham', 'Wrexham', 1.4, 'Wrexham', 'Chirk', 'Gresford'),
  cy('Monmouthshire', 'Monmouthshire', 0.9, 'Monmouth', 'Abergavenny', 'Chepstow'),
  cy('Torfaen', 'Torfaen', 0.9, 'Pontypool', 'Cwmbran'),
  cy('Blaenau Gwent', 'Blaenau Gwent', 0.7, 'Ebbw Vale', 'Tredegar', 'Abertillery'),
];

export const STREETS: readonly string[] = [
  'High Street', 'Station Road', 'Church Street', 'Main Street', 'Park Road', 'Church Lane', 'Victoria Road', 'Green Lane', 'Manor Road', 'Church Road',
  'Park Avenue', 'The Avenue', 'The Crescent', 'Queens Road', 'New Road', 'Grange Road', 'Kings Road', 'Highfield Road', 'Mill Lane', 'Alexandra Road',
  'School Lane', 'North Street', 'Stanley Road', 'Chester Road', 'London Road', 'York Road', 'Springfield Road', 'Windsor Road', 'Albert Road', 'Chapel Street',
  'West Street', 'South Street', 'Richmond Road', 'Broadway', 'Mill Road', 'Cromwell Road', 'Moor Lane', 'Station Street', 'Queen Street', 'King Street',
  'Orchard Close', 'Meadow View', 'Beech Grove', 'Oak Avenue', 'Elm Grove', 'Willow Close', 'Ash Grove', 'Maple Drive', 'Chestnut Avenue', 'Rowan Way',
  'The Close', 'The Green', 'Field Lane', 'Hall Lane', 'Back Lane', 'Market Street', 'Bridge Street', 'Water Lane', 'Mount Pleasant', 'Hillside',
  'Clarence Road', 'Waterloo Road', 'Nelson Street', 'Wellington Road', 'Gladstone Street', 'Cobden Street', 'Peel Street', 'Derby Road', 'Lime Street', 'Cemetery Road',
  'Coronation Street', 'Jubilee Road', 'Regent Street', 'Grove Road', 'Rectory Lane', 'Vicarage Road', 'Farm Close', 'Brook Street', 'Quarry Lane', 'Canal Street',
  "St John's Road", "St Mary's Road", "Bishop's Walk", "Queen's Drive", "King's Avenue", 'Lark Rise', 'Heather Close', 'Foxglove Way', 'Primrose Hill', 'Bluebell Close',
  'Cedar Road', 'Hawthorn Avenue', 'Sycamore Close', 'Holly Bank', 'Laurel Grove', 'Fairfield Road', 'Westfield Avenue', 'Woodland Rise', 'Birch Lane', 'Poplar Street',
];

export const WELSH_STREETS: readonly string[] = [
  'Heol y Parc', 'Stryd Fawr', 'Ffordd yr Orsaf', 'Heol Newydd', 'Maes y Coed', 'Bryn Teg', 'Heol yr Eglwys', 'Tan y Bryn', 'Ffordd y Capel', 'Heol y Bont',
  'Stryd y Castell', 'Rhodfa’r Môr', 'Lôn Las', 'Cae Glas', 'Pen y Bryn', 'Heol Awel', 'Maes yr Haf', 'Ffordd Penrhos', 'Heol Gwyn', 'Stryd y Farchnad',
];

/** Building names for flats and for the rare named house. */
export const BUILDINGS: readonly string[] = [
  'Court', 'House', 'Mansions', 'Lodge', 'Heights', 'Gardens', 'Place', 'Point', 'Tower', 'Wharf',
];
export const HOUSE_NAMES: readonly string[] = [
  'Rose Cottage', 'The Cottage', 'Ivy House', 'The Old Rectory', 'Orchard House', 'The Laurels', 'Woodlands', 'Fairview', 'The Bungalow', 'Meadow Cottage',
  'Ty Gwyn', 'Bryn Awel', 'Hafod', 'The Old School House', 'Mill House',
];

/** Hospitals are named after their town with one of these; a few Welsh ones in Welsh. */
export const HOSPITALS: readonly string[] = [
  'General Hospital', 'Royal Infirmary', 'District General Hospital', 'Community Hospital', 'University Hospital', 'City Hospital', 'Royal Hospital',
];
export const CARE_HOMES: readonly string[] = [
  'Nursing Home', 'Care Home', 'Residential Home', 'Hospice', 'House Care Centre',
];
export const CARE_HOME_NAMES: readonly string[] = [
  'Beechwood', 'The Willows', 'Oakleigh', 'Meadowbank', 'Ashgrove', 'Hillcrest', 'Rosedale', 'Fernlea', 'Brookside', 'Elmhurst',
  "St Catherine's", "St Joseph's", 'Highfield', 'Lynwood', 'Cherry Trees',
];

export type Denomination = 'anglican' | 'catholic' | 'free church' | 'welsh chapel' | 'orthodox' | 'other faith';

/**
 * Places of worship registered for marriages ("St Mary's Church, Town"), each
 * with its parish dedication when it is a parish church ("St Mary, Town").
 */
export const CHURCHES: readonly (readonly [name: string, parish: string | null, denomination: Denomination])[] = [
  ["St Mary's Church", 'St Mary', 'anglican'],
  ["St Michael's Church", 'St Michael', 'anglican'],
  ['All Saints Church', 'All Saints', 'anglican'],
  ["St Peter's Church", 'St Peter', 'anglican'],
  ['Holy Trinity Church', 'Holy Trinity', 'anglican'],
  ["St John's Church", 'St John the Baptist', 'anglican'],
  ["St Andrew's Church", 'St Andrew', 'anglican'],
  ['Christ Church', 'Christ Church', 'anglican'],
  ["St James's Church", 'St James', 'anglican'],
  ["St George's Church", 'St George', 'anglican'],
  ["St Joseph's Catholic Church", null, 'catholic'],
  ["St Patrick's Catholic Church", null, 'catholic'],
  ['Methodist Church', null, 'free church'],
  ['Baptist Church', null, 'free church'],
  ['United Reformed Church', null, 'free church'],
  ['Capel Bethel', null, 'welsh chapel'],
  ['Capel Seion', null, 'welsh chapel'],
  ['Central Mosque', null, 'other faith'],
  ['Gurdwara Sri Guru Singh Sabha', null, 'other faith'],
  ['Shree Krishna Temple', null, 'other faith'],
  ['Greek Orthodox Church of St Nicholas', null, 'orthodox'],
  ['Synagogue', null, 'other faith'],
];

/** Approved premises for civil ceremonies. */
export const VENUES: readonly string[] = [
  'The Manor House Hotel', 'The Grange', 'Town Hall', 'Assembly Rooms', 'The Old Barn', 'Guildhall', 'Castle Hotel', 'The Royal Hotel',
  'Park House', 'The Orangery', 'Country Park Visitor Centre', 'Golf Club', 'The Mill', 'Abbey Hotel', 'The Boathouse',
];
